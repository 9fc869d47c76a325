import type { LeaseView, RentalMode } from '../domain/lease';
import { leaseSpanWithin } from '../domain/usage-export';
import type { DemandTrace, TraceLease } from './demand-trace';

/** A lease of the month as it ran: the trace lease plus the mode it actually ran in. */
export interface RanLease extends TraceLease {
  readonly mode: RentalMode;
}

export interface MonthDemand {
  readonly trace: DemandTrace;
  readonly ran: readonly RanLease[];
}

/**
 * A tenant's leases of [fromMs, toMs) as a demand trace: the rows
 * `GET /v1/usage/export` gives for that range (the same span per lease), cut to
 * the range, with a lease still running taken to run to its end. Time zero is
 * the start of the range, so reservation terms and spot tick 0 start there.
 */
export function monthDemand(leases: readonly LeaseView[], fromMs: number, toMs: number): MonthDemand {
  const ran: RanLease[] = [];
  for (const lease of leases) {
    const span = leaseSpanWithin(lease, fromMs, toMs);
    if (!span) continue;
    ran.push({
      id: lease.leaseId,
      workload: lease.workload,
      gpus: lease.gpus,
      mode: lease.instances[0]?.mode ?? 'on-demand',
      startMs: Math.max(span.startedAtMs, fromMs),
      endMs: Math.min(span.endedAtMs ?? toMs, toMs),
    });
  }
  ran.sort((a, b) => a.startMs - b.startMs || a.id.localeCompare(b.id));
  return {
    ran,
    trace: {
      format: 'usage-export',
      leases: ran.map(({ mode: _mode, ...lease }) => lease),
      originMs: fromMs,
      endMs: toMs,
      notes: [
        `The tenant's own leases of ${new Date(fromMs).toISOString()} to ${new Date(toMs).toISOString()} ` +
          `(${ran.length}), cut to that range; a lease still running is taken to run to its end.`,
        'The mode each lease ran in is not replayed: the policy decides it again, and every GPU is priced as a ' +
          'p3.2xlarge, the only type with spot traces.',
      ],
    },
  };
}
