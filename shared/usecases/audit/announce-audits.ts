import { mapWithConcurrency } from '../../concurrency';
import { auditSummaryMessage } from '../../domain/audit/audit-summary';
import type { MonthlyAudit } from '../../domain/audit/monthly-audit';
import type { AuditNotifier, AuditStore, ChargedTenants } from '../../ports/audits';
import type { DomainEventPublisher } from '../../ports/domain-events';
import { type AuditBuildDeps, buildAudit } from './build-audit';

export interface AuditAnnounceDeps extends AuditBuildDeps {
  readonly audits: AuditStore;
  readonly tenants: ChargedTenants;
  readonly notifier: AuditNotifier;
  readonly events: DomainEventPublisher;
  /** The clock claims are stamped and judged stale by (the month comes from the schedule). */
  readonly now: () => number;
}

/** A claim to announce that has not finished after this long is taken over by a later run. */
export const ANNOUNCE_GRACE_MS = 2 * 60_000;
const TENANTS_IN_FLIGHT = 4;

export interface AnnounceSummary {
  readonly month: string;
  readonly tenants: number;
  readonly stored: number;
  readonly announced: number;
}

/**
 * Builds (as of `nowMs`, the scheduled time), stores and announces `month`'s
 * audit for every tenant charged in it.
 * Once per tenant and month however often it runs: the audit is written only if
 * absent (a later run reads the stored one back), and the announcement (SNS
 * summary, then `AuditReady`) goes out after a conditional claim; a claim left
 * unfinished by a crash is taken over after ANNOUNCE_GRACE_MS and sent again
 * with the same `auditId`.
 */
export async function announceMonthlyAudits(
  deps: AuditAnnounceDeps,
  month: string,
  nowMs: number,
): Promise<AnnounceSummary> {
  const tenants = await deps.tenants.chargedIn(month);
  const results = await mapWithConcurrency(tenants, TENANTS_IN_FLIGHT, (tenantId) =>
    announceOne(deps, tenantId, month, nowMs),
  );
  return {
    month,
    tenants: tenants.length,
    stored: results.filter((r) => r.stored).length,
    announced: results.filter((r) => r.announced).length,
  };
}

async function announceOne(deps: AuditAnnounceDeps, tenantId: string, month: string, nowMs: number) {
  let stored = await deps.audits.get(tenantId, month);
  let wrote = false;
  if (!stored) {
    wrote = await deps.audits.putIfAbsent(await buildAudit(deps, tenantId, month, nowMs));
    stored = await deps.audits.get(tenantId, month);
  }
  if (!stored || stored.announcedAtMs !== undefined) return { stored: wrote, announced: false };
  const claimedAtMs = deps.now();
  const claimed = await deps.audits.claimAnnouncement(
    tenantId,
    month,
    claimedAtMs,
    claimedAtMs - ANNOUNCE_GRACE_MS,
  );
  if (!claimed) return { stored: wrote, announced: false };
  await announce(deps, stored.audit);
  await deps.audits.markAnnounced(tenantId, month, deps.now());
  return { stored: wrote, announced: true };
}

async function announce(deps: AuditAnnounceDeps, audit: MonthlyAudit): Promise<void> {
  const message = auditSummaryMessage(audit);
  await deps.notifier.publish(message);
  const r = audit.recommendation;
  await deps.events.publish([
    {
      type: 'AuditReady',
      tenantId: audit.tenantId,
      detail: {
        month: audit.month,
        auditId: message.attributes.auditId,
        costMicroUsd: audit.costMicroUsd,
        reservedGpus: r?.reservedGpus ?? 0,
        estimatedSavingMicroUsd: r?.estimatedSavingOfPaidMicroUsd ?? 0,
      },
    },
  ]);
}
