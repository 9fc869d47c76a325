import { createHash } from 'node:crypto';
import { formatUsdPerHourForPeople } from '../money';
import type { LeaseSpend, SpendAnomalyAlert } from './spend-anomaly';

/** An anomaly alert for the budget alerts topic: the budget alerts' attributes, `kind: anomaly`. */
export interface SpendAnomalyMessage {
  readonly subject: string;
  readonly body: string;
  readonly attributes: {
    readonly tenant: string;
    readonly month: string;
    readonly alertId: string;
    readonly kind: 'anomaly';
    readonly project?: string | undefined;
  };
}

/** One id per episode of one series, so a repeated publish after a crash carries the same id. */
export function anomalyAlertIdOf(tenantId: string, project: string | undefined, startedAtMs: number): string {
  return createHash('sha256')
    .update(['anomaly', tenantId, project ?? '', startedAtMs].join('\n'))
    .digest('hex')
    .slice(0, 32);
}

export function spendAnomalyMessage(
  tenantId: string,
  project: string | undefined,
  alert: SpendAnomalyAlert,
  leases: readonly LeaseSpend[],
): SpendAnomalyMessage {
  const rate = formatUsdPerHourForPeople;
  const scope = project === undefined ? 'all leases' : `project ${project}`;
  const since = new Date(alert.startedAtMs).toISOString();
  return {
    subject: `gpurent: spend anomaly for ${tenantId} (${scope})`.slice(0, 100),
    body: [
      `Spend rate of ${scope} is ${rate(alert.rateMicroUsdPerHour)}, above its usual ${rate(alert.expectedMicroUsdPerHour)} for this hour (alert line ${rate(alert.lineMicroUsdPerHour)}) since ${since}.`,
      leases.length === 0
        ? 'No lease is running in scope.'
        : `Leases driving it (dearest first):\n${leases.map((l) => `  ${l.leaseId}  ${rate(l.hourlyMicroUsd)}`).join('\n')}`,
    ].join('\n'),
    attributes: {
      tenant: tenantId,
      month: new Date(alert.atMs).toISOString().slice(0, 7),
      alertId: anomalyAlertIdOf(tenantId, project, alert.startedAtMs),
      kind: 'anomaly',
      project,
    },
  };
}
