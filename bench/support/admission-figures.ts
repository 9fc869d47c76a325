import type { LeaseOutcome } from '../../shared/planning/admission/replay';
import { median, percentile, round } from './stats';

/** p95 of each tenant's waits (arrival to start) in seconds; leases that timed out are counted apart. */
export function waitFigures(outcomes: readonly LeaseOutcome[], tenantIds: readonly string[]) {
  const p95WaitSecondsByTenant: Record<string, number> = {};
  const leasesByTenant: Record<string, number> = {};
  for (const tenantId of tenantIds) {
    const waits = outcomes
      .filter((o) => o.lease.tenantId === tenantId && o.startMs !== null)
      .map((o) => ((o.startMs as number) - o.lease.arrivalMs) / 1000);
    leasesByTenant[tenantId] = waits.length;
    p95WaitSecondsByTenant[tenantId] = waits.length === 0 ? 0 : round(percentile(waits, 0.95), 0);
  }
  const allWaits = outcomes
    .filter((o) => o.startMs !== null)
    .map((o) => ((o.startMs as number) - o.lease.arrivalMs) / 1000);
  return {
    p95WaitSecondsByTenant,
    leasesByTenant,
    p95WaitSeconds: round(percentile(allWaits, 0.95), 0),
    queuedOnArrival: outcomes.filter((o) => o.prediction).length,
    timedOut: outcomes.filter((o) => o.startMs === null).length,
  };
}

/**
 * Absolute error of the start estimates made at arrival, against the start
 * the replay then gave the lease, for the leases queued on arrival that did
 * start. An estimate of none (times-out, no known release) is counted apart.
 */
export function estimateFigures(outcomes: readonly LeaseOutcome[]) {
  const started = outcomes.filter((o) => o.prediction && o.startMs !== null);
  const errorOf = (estimate: number, o: LeaseOutcome) => Math.abs(estimate - (o.startMs as number)) / 1000;
  const withEstimate = started.filter((o) => o.prediction?.estimatedStartAtMs !== null);
  const ours = withEstimate.map((o) => errorOf(o.prediction?.estimatedStartAtMs as number, o));
  const naive = started.map((o) => errorOf(o.prediction?.naiveStartAtMs as number, o));
  const naiveOnSame = withEstimate.map((o) => errorOf(o.prediction?.naiveStartAtMs as number, o));
  const bases: Record<string, number> = {};
  for (const o of started)
    bases[o.prediction?.basis as string] = (bases[o.prediction?.basis as string] ?? 0) + 1;
  const stat = (values: number[], f: (v: number[]) => number) =>
    values.length === 0 ? null : round(f(values), 0);
  return {
    estimated: withEstimate.length,
    withoutEstimate: started.length - withEstimate.length,
    estimateMedianErrorSeconds: stat(ours, median),
    estimateP90ErrorSeconds: stat(ours, (v) => percentile(v, 0.9)),
    naiveEstimateMedianErrorSeconds: stat(naive, median),
    naiveEstimateP90ErrorSeconds: stat(naive, (v) => percentile(v, 0.9)),
    naiveMedianErrorOnEstimatedSeconds: stat(naiveOnSame, median),
    estimateBases: bases,
  };
}
