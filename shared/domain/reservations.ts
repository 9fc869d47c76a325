import { costOfSeconds, type MicroUsd } from './money';

const DAY_MS = 86_400_000;

/** Reserved capacity is committed for this long and paid in full whether used or not. */
export const RESERVATION_TERM_MS = 30 * DAY_MS;

/**
 * How much past demand a reservation decision looks at. Short on purpose: in a
 * growing fleet a month-long window lags the trend by half a month, while the
 * last few days already hold the long-running leases that will fill the next
 * term; three days still span weekday and night cycles. Replaying the Alibaba
 * trace (`npm run simulate -- --lookback-days N`): 1-3 days land 4.3-4.4% above
 * hindsight, 7 days 6%, 30 days 18%.
 */
export const DEFAULT_RESERVATION_LOOKBACK_MS = 3 * DAY_MS;

/** GPUs in use at the same time during [fromMs, toMs): demand as a step function. */
export interface DemandSegment {
  readonly fromMs: number;
  readonly toMs: number;
  readonly gpus: number;
}

export interface ReservationRequest {
  /** Demand that reserved capacity can serve (GPUs on reserved or on-demand), oldest first. */
  readonly history: readonly DemandSegment[];
  /** Start of the term being decided; demand from here on is never looked at. */
  readonly termStartMs: number;
  readonly lookbackMs?: number;
  readonly reservedMicroUsdPerHour: MicroUsd;
  readonly onDemandMicroUsdPerHour: MicroUsd;
}

export interface ReservationDecision {
  readonly gpus: number;
  /** Share of the term a reserved GPU must be busy to cost less than on-demand. */
  readonly breakEvenUtilization: number;
  readonly reason: string;
}

/**
 * Break-even utilisation: a reserved GPU costs `reserved` every hour, busy or
 * not, and saves `onDemand` for each hour it is busy, so it pays off when it is
 * busy for more than reserved / onDemand of the term (63% at catalog prices).
 */
export function breakEvenUtilization(
  reservedMicroUsdPerHour: MicroUsd,
  onDemandMicroUsdPerHour: MicroUsd,
): number {
  return reservedMicroUsdPerHour / onDemandMicroUsdPerHour;
}

/**
 * For each level k = 1, 2, ... (index k - 1): how long at least k GPUs were in
 * use within [fromMs, toMs). The k-th reserved GPU is busy exactly that long,
 * since reserved capacity serves the first GPUs of concurrent demand.
 */
export function busyTimeByLevel(history: readonly DemandSegment[], fromMs: number, toMs: number): number[] {
  const timeAtLevel: number[] = [];
  for (const segment of history) {
    const overlap = Math.min(segment.toMs, toMs) - Math.max(segment.fromMs, fromMs);
    if (overlap <= 0 || segment.gpus <= 0) continue;
    for (let level = timeAtLevel.length; level < segment.gpus; level += 1) timeAtLevel.push(0);
    timeAtLevel[segment.gpus - 1] = (timeAtLevel[segment.gpus - 1] ?? 0) + overlap;
  }
  // Time at or above level k = time exactly at k plus time at or above k + 1.
  for (let level = timeAtLevel.length - 2; level >= 0; level -= 1) {
    timeAtLevel[level] = (timeAtLevel[level] ?? 0) + (timeAtLevel[level + 1] ?? 0);
  }
  return timeAtLevel;
}

/** The number of levels busy for more than `utilization` of `windowMs`: the GPUs worth reserving. */
export function gpusWorthReserving(busyMs: readonly number[], windowMs: number, utilization: number): number {
  let gpus = 0;
  while (gpus < busyMs.length && (busyMs[gpus] ?? 0) > utilization * windowMs) gpus += 1;
  return gpus;
}

/** What a commitment of `gpus` reserved GPUs costs for one whole term. */
export function commitmentCost(gpus: number, reservedMicroUsdPerHour: MicroUsd): MicroUsd {
  return gpus * costOfSeconds(RESERVATION_TERM_MS / 1000, reservedMicroUsdPerHour);
}

/**
 * How many reserved GPUs to commit for the term starting at `termStartMs`,
 * from past demand only: every GPU level that was busy above break-even over
 * the lookback window. The monthly audit and the planner's replay both call this.
 */
export function recommendReservedGpus(request: ReservationRequest): ReservationDecision {
  const lookbackMs = request.lookbackMs ?? DEFAULT_RESERVATION_LOOKBACK_MS;
  const fromMs = request.termStartMs - lookbackMs;
  const utilization = breakEvenUtilization(request.reservedMicroUsdPerHour, request.onDemandMicroUsdPerHour);
  const busyMs = busyTimeByLevel(request.history, fromMs, request.termStartMs);
  // In words a tenant reads: "GPU 3 only 10%" is planner jargon for the third GPU held at once.
  const breakEven = `${percent(utilization)} at which a reserved GPU pays for itself`;
  const days = `${Math.round((lookbackMs / DAY_MS) * 10) / 10} days`;
  if (busyMs.length === 0) {
    return {
      gpus: 0,
      breakEvenUtilization: utilization,
      reason: `no GPU was in use in the last ${days}; a reserved GPU pays for itself above ${percent(utilization)} use`,
    };
  }
  const gpus = gpusWorthReserving(busyMs, lookbackMs, utilization);
  const share = (level: number) => percent((busyMs[level - 1] ?? 0) / lookbackMs);
  const kept =
    gpus > 0
      ? `${gpusInWords(gpus)} at once ${gpus === 1 ? 'was' : 'were'} in use ${share(gpus)} of the last ${days}, above the ${breakEven}`
      : `no GPU was in use more than the ${breakEven}, over the last ${days}`;
  const next =
    gpus < busyMs.length
      ? `a ${ordinal(gpus + 1)} GPU at once only ${share(gpus + 1)} of the time`
      : `never more than ${gpusInWords(gpus)} at once`;
  return {
    gpus,
    breakEvenUtilization: utilization,
    reason: `${kept}; ${next}`,
  };
}

const gpusInWords = (gpus: number) => `${gpus} GPU${gpus === 1 ? '' : 's'}`;

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function percent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

/** A lease's instances that run off spot (one GPU each), which reserved GPUs could carry. */
export interface ReservableLease {
  readonly leaseId: string;
  readonly gpus: number;
  readonly startedAtMs: number;
  /** Batch that only runs off spot for want of spot capacity. */
  readonly interruptible: boolean;
}

/**
 * How many of each lease's instances the reserved GPUs carry; the rest run
 * on-demand. Leases that cannot be interrupted come first: pushed off reserved
 * they can only go on-demand, while interruptible batch can go back to spot.
 * Within each group the oldest leases come first, since a lease that has run
 * long is the likeliest to keep running; the last one may be carried in part.
 * Reserved GPUs are the same instance type at a price already paid, so a change
 * of assignment changes the billing, not the instance. Recomputed after every
 * change (a lease starts or ends, a term commits more or fewer GPUs), it also
 * says what a smaller term takes off reserved: the youngest leases.
 */
export function assignReservedGpus(
  reservedGpus: number,
  leases: readonly ReservableLease[],
): Map<string, number> {
  const order = [...leases].sort(
    (a, b) => Number(a.interruptible) - Number(b.interruptible) || a.startedAtMs - b.startedAtMs,
  );
  const assigned = new Map<string, number>();
  let free = reservedGpus;
  for (const lease of order) {
    const gpus = Math.min(free, lease.gpus);
    assigned.set(lease.leaseId, gpus);
    free -= gpus;
  }
  return assigned;
}
