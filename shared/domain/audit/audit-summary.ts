import { createHash } from 'node:crypto';
import { formatUsdForPeople } from '../money';
import type { MonthlyAudit } from './monthly-audit';

/** An audit's summary for the budget alerts topic. */
export interface AuditSummaryMessage {
  readonly subject: string;
  readonly body: string;
  readonly attributes: {
    readonly tenant: string;
    readonly month: string;
    readonly kind: 'audit';
    /** The same for every send of one tenant's month: subscribers drop a repeat. */
    readonly auditId: string;
  };
}

/** The same for every announcement of one tenant's month, so a subscriber can drop a repeat. */
export function auditIdOf(tenantId: string, month: string): string {
  return createHash('sha256').update(`${tenantId}\n${month}`).digest('hex').slice(0, 32);
}

const usd = formatUsdForPeople;
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** The audit's summary for the budget alerts topic (`kind` = `audit`). */
export function auditSummaryMessage(audit: MonthlyAudit): AuditSummaryMessage {
  const lines = [
    `gpurent monthly audit of ${audit.month} for tenant ${audit.tenantId}.`,
    `Cost: ${usd(audit.costMicroUsd)} (${
      audit.byMode
        .filter((mode) => mode.costMicroUsd > 0)
        .map((mode) => `${mode.mode} ${usd(mode.costMicroUsd)}, ${percent(mode.share)}`)
        .join('; ') || 'nothing charged'
    }).`,
    `Spot saved ${usd(audit.spotSavings.savingMicroUsd)} against on-demand for the same seconds.`,
    ...audit.findings,
  ];
  const r = audit.recommendation;
  if (r) {
    lines.push(
      `Recommendation: commit ${r.reservedGpus} reserved GPU(s) (${r.reservedReason}); ` +
        `move to spot: ${r.spotCandidates.map((c) => `${c.workload} (${c.gpuHours} GPU-h)`).join(', ') || 'nothing'}.`,
      `Estimated saving: ${percent(r.savingShare)} of the month, about ${usd(r.estimatedSavingOfPaidMicroUsd)} ` +
        `of what was paid (planner model: ${r.model.instanceType} prices and V100 spot traces).`,
    );
  }
  lines.push(`Full audit: GET /v1/audit/${audit.month}; report: GET /v1/audit/${audit.month}/report.html`);
  return {
    subject: `gpurent audit ${audit.month}: ${usd(audit.costMicroUsd)}`,
    body: lines.join('\n'),
    attributes: {
      tenant: audit.tenantId,
      month: audit.month,
      kind: 'audit',
      auditId: auditIdOf(audit.tenantId, audit.month),
    },
  };
}
