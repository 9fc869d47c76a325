import type { MicroUsd } from '../money';

/**
 * What explains a spend rate above its line: the leases behind it. A rate
 * alone cannot tell a runaway from a big legitimate job on a small tenant (one
 * 8-GPU job starting on a tenant of 5 GPUs is 2-3 × its normal; BENCHMARKS.md
 * "waste"); the leases can. A job is one lease, of a size the tenant runs; a
 * runaway is spend no one such lease accounts for: many leases (a loop
 * relaunching one, an autoscaler gone wrong, a ramp creeping over the line a
 * small lease at a time) or one lease dearer than any the tenant ran and than
 * its hour's line.
 *
 * Method: each UTC day keeps the dearest lease started that day, for `days`
 * days: the tenant's largest job is the dearest of those. When the rate passes
 * the line and no lease is explained yet, the dearest lease started in the
 * last `windowMinutes` explains the excess if the rate without it is back
 * under the line and it costs no more than the largest job or the line itself
 * (one lease, asked for once, that alone stays under what the tenant's hour
 * normally reaches: a first 8-GPU job on a tenant of 1-GPU leases is a new
 * size, not a runaway; a lease dearer than the line still is): it is then taken
 * off the rate the line judges for as long as it runs, so a long job is one
 * explanation, not a recurring alert. One lease at a time: a second job on top
 * of the first, or a runaway after a job, is judged on the rest of the rate.
 */

/** A lease's part in a series' spend now. */
export interface LeaseSpend {
  readonly leaseId: string;
  readonly startedAtMs: number;
  readonly hourlyMicroUsd: MicroUsd;
  /** What its cheapest instance costs: the step in which it grows or shrinks; absent, the lease is one instance. */
  readonly instanceHourlyMicroUsd?: MicroUsd | undefined;
}

export interface ExplanationParams {
  /** A lease started within this many minutes before the excess can explain it. */
  readonly windowMinutes: number;
  /** Days of dearest leases kept. */
  readonly days: number;
  /** No explanation before this many days are kept. */
  readonly minDays: number;
}

export const DEFAULT_EXPLANATION_PARAMS: ExplanationParams = {
  windowMinutes: 60,
  days: 14,
  minDays: 7,
};

/** Plain data, stored with the series' baseline. */
export interface ExplanationState {
  readonly dayStartMs: number | null;
  /** The dearest lease started so far today (µ$/h), as seen within the window of its start. */
  readonly dayPeak: number;
  /** Past days' dearest leases, oldest first. */
  readonly byDay: readonly number[];
  /** The lease taken as a known job (none or one), while it runs. */
  readonly explained: readonly string[];
}

export const EMPTY_EXPLANATION: ExplanationState = { dayStartMs: null, dayPeak: 0, byDay: [], explained: [] };

const DAY_MS = 86_400_000;

const costOf = (leases: readonly LeaseSpend[]) => leases.reduce((sum, l) => sum + l.hourlyMicroUsd, 0);

/** The tenant's largest job: the dearest lease it started in the days kept; null without the history. */
export function startPrecedent(
  state: ExplanationState,
  params: ExplanationParams = DEFAULT_EXPLANATION_PARAMS,
): number | null {
  return state.byDay.length < params.minDays ? null : Math.max(...state.byDay);
}

/**
 * This run's leases into the state: the day's dearest start, the day's
 * turn, an explained lease no longer running dropped. Returns what the
 * explained lease costs now.
 */
export function advanceExplanation(
  previous: ExplanationState,
  atMs: number,
  leases: readonly LeaseSpend[],
  params: ExplanationParams = DEFAULT_EXPLANATION_PARAMS,
): { state: ExplanationState; explainedMicroUsdPerHour: number } {
  const dayStartMs = Math.floor(atMs / DAY_MS) * DAY_MS;
  const turned = previous.dayStartMs !== null && previous.dayStartMs !== dayStartMs;
  const byDay = turned ? [...previous.byDay, previous.dayPeak].slice(-params.days) : previous.byDay;
  const started = Math.max(
    0,
    ...leases
      .filter((l) => l.startedAtMs > atMs - params.windowMinutes * 60_000)
      .map((l) => l.hourlyMicroUsd),
  );
  const known = new Set(previous.explained);
  const explained = leases.filter((l) => known.has(l.leaseId));
  return {
    state: {
      dayStartMs,
      dayPeak: Math.max(turned || previous.dayStartMs === null ? 0 : previous.dayPeak, started),
      byDay,
      explained: explained.map((l) => l.leaseId),
    },
    explainedMicroUsdPerHour: costOf(explained),
  };
}

/**
 * The dearest one lease that is a plausible job: the tenant's largest, or,
 * when that is smaller, the hour's line itself (a lease that alone would not
 * pass it: a new size the tenant's normal hour already reaches, as AWS Cost
 * Anomaly Detection does not alert new but plausible usage).
 */
const plausibleLease = (largestJob: number, line: number) => Math.max(largestJob, line);

/**
 * A rate above its line (`unexplained`: no lease is explained now) put to the
 * dearest lease started in the window: the state with it explained, or null
 * when the excess stands.
 */
export function explainExcess(
  state: ExplanationState,
  atMs: number,
  leases: readonly LeaseSpend[],
  unexplainedMicroUsdPerHour: number,
  line: number,
  params: ExplanationParams = DEFAULT_EXPLANATION_PARAMS,
): { state: ExplanationState; explainedMicroUsdPerHour: number } | null {
  const largestJob = startPrecedent(state, params);
  if (largestJob === null || state.explained.length > 0) return null;
  const job = leases
    .filter((l) => l.startedAtMs > atMs - params.windowMinutes * 60_000)
    .reduce<LeaseSpend | null>(
      (big, l) => (big === null || l.hourlyMicroUsd > big.hourlyMicroUsd ? l : big),
      null,
    );
  if (job === null || unexplainedMicroUsdPerHour - job.hourlyMicroUsd > line) return null;
  if (job.hourlyMicroUsd > plausibleLease(largestJob, line)) return null;
  return { state: { ...state, explained: [job.leaseId] }, explainedMicroUsdPerHour: job.hourlyMicroUsd };
}
