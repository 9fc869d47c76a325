import * as z from '../../zod';
import type { MicroUsd } from '../money';
import {
  advanceExplanation,
  DEFAULT_EXPLANATION_PARAMS,
  EMPTY_EXPLANATION,
  type ExplanationParams,
  type ExplanationState,
  explainExcess,
  type LeaseSpend,
} from './spend-explanation';

export type { LeaseSpend };

/**
 * Spend anomalies per metering run (one a minute), for one series: a tenant,
 * or one project of it.
 *
 * Method: a seasonal robust z-score. Each closed clock hour leaves its peak
 * spend rate (µ$/h) in two histories: its hour of the day (the last 14 days)
 * and its hour of the week (the last 4 weeks). A run's rate is in excess when
 * it passes the line of the hour it falls in: median + z / 0.6745 × MAD
 * (Iglewicz and Hoaglin's modified z-score; z = 3.5 at `medium`) of the peaks
 * of that hour and its two neighbours. The median and the MAD are taken on
 * square roots: spend is a sum of leases that come and go, roughly
 * compound-Poisson, whose spread grows with the square root of its level, and
 * the square root is the transform that makes such a spread even (Anscombe).
 * The line is placed back on the rate's own scale by the delta method: a
 * spread σ of √rate about √m is a spread of 2√m × σ of the rate about m, so
 * line = m + z × 2√m × σ. Squaring (√m + zσ)² instead adds z²σ², a term that
 * grows with the spread's share of the level, not with the level: on a small
 * tenant whose hourly peaks run from 1 to 35 GPUs it put the line three times
 * over the highest peak ever seen, and anomalies of +2-5 × normal passed under
 * it (BENCHMARKS.md "waste", wave 9). Once two weeks exist the hour of
 * the week can raise the median: the higher of the two applies, so a weekend
 * busier than the weekdays is normal. The spread stays the hour of day's:
 * 2-4 weeks (6-12 peaks with the neighbours) are too few for a steady MAD,
 * and the higher of two noisy lines is biased up (taking it cost 3-4 points
 * of recall on two tenant families of three, BENCHMARKS.md "waste"). The
 * MAD never counts under a tenth of the median (both on the square-root
 * scale) and the excess never under $1/h, so a flat series is not alarmed by
 * one more small lease.
 *
 * Whole instances: a rate is in excess only when it passes the line by at
 * least the price of the cheapest instance running. Spend moves an instance
 * at a time while the line is a continuous statistic: a tenant of 1-GPU
 * instances whose line is 13.84 GPUs is, at 14 GPUs, on the level the line
 * allows rounded to whole instances, not over it. The step is never more
 * than the line's margin over expected, so one big instance on a tenant that
 * normally runs nothing is still in excess. The rate alone (no leases read)
 * keeps the bare line.
 *
 * Episodes: `sustainRuns` runs in excess in a row open one and raise its one
 * alert; `clearRuns` calm runs in a row close it, a run being calm only when
 * its rate is back under the middle of expected and line (`clearShare`). So a
 * surge that hovers about the line, dipping under it for half an hour but
 * never back near normal, stays one episode: on the trace-built tenants three
 * false alerts in five were such repeats of one surge. Nothing is alerted
 * before `minHistoryDays` days of the hour exist (a new tenant). Medians come
 * from the history, so a new normal (a step that stays) becomes the baseline
 * within a week, and one anomalous hour moves them little.
 *
 * Explained spend: the rate judged is the series' leases' cost less what the
 * leases behind it explain (`spend-explanation.ts`): a job of a size the
 * tenant starts on several days of two weeks is not alerted however far it
 * takes the rate over the line; a runaway (more started in an hour than the
 * tenant ever starts, or spend no recent start accounts for) is. The
 * histories keep the whole rate's peaks, explained or not: the line is what
 * the tenant spends.
 *
 * New spend: an excess opens only on a rate that rose past the line, i.e.
 * when some run since the previous hour began was at or under the line now
 * in force. A rate passes its line either because spend rises or because the
 * line falls at an hour's turn (the next hour's normal is lower, or none)
 * under spend that has run for longer; only the first is a runaway. On the
 * bench's synthetic tenants nearly every false alert was the second: a
 * tenant's quietest hour, median no GPU, its line a third of a GPU, met by a
 * lease started in the afternoon (BENCHMARKS.md "waste"). A runaway passes:
 * it starts from a rate under the line, be it new leases or one lease growing.
 * Once an excess runs the check is not repeated, so it only gates the opening.
 * O(leases) per run; at an hour's turn O(history) to recompute the line.
 */
export const ANOMALY_SENSITIVITIES = ['low', 'medium', 'high'] as const;
export type AnomalySensitivity = (typeof ANOMALY_SENSITIVITIES)[number];

const Z_BY_SENSITIVITY: Record<AnomalySensitivity, number> = { low: 5, medium: 3.5, high: 2.5 };

/** What a tenant sets for itself or one project; `enabled: false` turns anomalies off for it. */
export const spendAnomalySettingsSchema = z.strictObject({
  sensitivity: z._default(z.enum(ANOMALY_SENSITIVITIES), 'medium'),
  enabled: z._default(z.boolean(), true),
});
export type SpendAnomalySettings = z.output<typeof spendAnomalySettingsSchema>;

export interface AnomalyParams {
  readonly sensitivity: AnomalySensitivity;
  /** Runs in excess in a row before the alert: 3 (a minute each). */
  readonly sustainRuns: number;
  /** Calm runs in a row that end an episode. */
  readonly clearRuns: number;
  /** A run is calm at or under expected + this share of (line - expected): hysteresis, so one surge is one episode. */
  readonly clearShare: number;
  readonly minHistoryDays: number;
  readonly dayHistory: number;
  readonly weekHistory: number;
  /** The MAD never counts less than this share of the median (square-root scale). */
  readonly minSpreadShare: number;
  /** An excess smaller than this (µ$/h) is never an anomaly. */
  readonly minExcessMicroUsdPerHour: MicroUsd;
  /** How leases explain an excess; null judges the rate alone (the benchmark's comparison). */
  readonly explanation: ExplanationParams | null;
}

export const DEFAULT_ANOMALY_PARAMS: AnomalyParams = {
  sensitivity: 'medium',
  sustainRuns: 3,
  clearRuns: 30,
  clearShare: 0.5,
  minHistoryDays: 7,
  dayHistory: 14,
  weekHistory: 4,
  minSpreadShare: 0.1,
  minExcessMicroUsdPerHour: 1_000_000,
  explanation: DEFAULT_EXPLANATION_PARAMS,
};

/** Plain data, to be stored between runs (one DynamoDB item per series). */
export interface SpendAnomalyState {
  /** The clock hour being accumulated, and its peak rate so far. */
  readonly hourStartMs: number | null;
  readonly hourPeak: number;
  /**
   * The lowest rate judged in the current hour and in the one before (null: no run yet); absent in a state
   * stored before they were kept, which takes any excess as new.
   */
  readonly hourLow?: number | null;
  readonly previousHourLow?: number | null;
  /** Peak rates of past hours, oldest first: 24 hour-of-day slots, 168 hour-of-week slots (UTC). */
  readonly byHourOfDay: readonly (readonly number[])[];
  readonly byHourOfWeek: readonly (readonly number[])[];
  /** The line for the current hour, null while there is no baseline for it. */
  readonly line: number | null;
  readonly expected: number | null;
  readonly excessRuns: number;
  readonly excessSinceMs: number | null;
  readonly calmRuns: number;
  readonly episode: { readonly startedAtMs: number; readonly alertedAtMs: number } | null;
  /** What the leases explain; absent in a state stored before leases were read (taken as empty). */
  readonly explanation?: ExplanationState;
}

export function emptyAnomalyState(): SpendAnomalyState {
  return {
    hourStartMs: null,
    hourPeak: 0,
    hourLow: null,
    previousHourLow: null,
    byHourOfDay: Array.from({ length: 24 }, () => []),
    byHourOfWeek: Array.from({ length: 168 }, () => []),
    line: null,
    expected: null,
    excessRuns: 0,
    excessSinceMs: null,
    calmRuns: 0,
    episode: null,
    explanation: EMPTY_EXPLANATION,
  };
}

/** The one alert of an episode: deterministic id for the exactly-once claim. */
export interface SpendAnomalyAlert {
  readonly alertId: string;
  readonly startedAtMs: number;
  readonly atMs: number;
  readonly rateMicroUsdPerHour: MicroUsd;
  readonly expectedMicroUsdPerHour: MicroUsd;
  readonly lineMicroUsdPerHour: MicroUsd;
}

const HOUR_MS = 3_600_000;
const MAD_TO_SIGMA = 0.6745;
/** 1970-01-01 was a Thursday; hour-of-week 0 is Monday 00:00 UTC. */
const hourOfWeek = (hourStartMs: number) => (Math.floor(hourStartMs / HOUR_MS) + 72) % 168;
const hourOfDay = (hourStartMs: number) => Math.floor(hourStartMs / HOUR_MS) % 24;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Median and floored MAD of peaks, on the square-root scale. */
function rootStats(values: readonly number[], params: AnomalyParams): { center: number; spread: number } {
  const roots = values.map(Math.sqrt);
  const center = median(roots);
  const spread = Math.max(median(roots.map((v) => Math.abs(v - center))), params.minSpreadShare * center);
  return { center, spread };
}

function lineAt(center: number, spread: number, params: AnomalyParams): { expected: number; line: number } {
  const z = Z_BY_SENSITIVITY[params.sensitivity];
  const expected = center ** 2;
  // Delta method: a spread on the square-root scale is 2√m times that spread on the rate's.
  const line = expected + (z / MAD_TO_SIGMA) * 2 * center * spread;
  return { expected, line: Math.max(line, expected + params.minExcessMicroUsdPerHour) };
}

/** A slot's values with its two neighbours' (the hour before and after), for a steadier spread. */
const around = (slots: readonly (readonly number[])[], index: number) =>
  [-1, 0, 1].flatMap((offset) => slots[(index + offset + slots.length) % slots.length] ?? []);

/** The baseline of an hour from the histories; null until it has `minHistoryDays` days. */
export function baselineOf(
  state: Pick<SpendAnomalyState, 'byHourOfDay' | 'byHourOfWeek'>,
  hourStartMs: number,
  params: AnomalyParams = DEFAULT_ANOMALY_PARAMS,
): { expected: number; line: number } | null {
  const day = hourOfDay(hourStartMs);
  if ((state.byHourOfDay[day] ?? []).length < params.minHistoryDays) return null;
  const daily = rootStats(around(state.byHourOfDay, day), params);
  const week = hourOfWeek(hourStartMs);
  const weekly =
    (state.byHourOfWeek[week] ?? []).length < 2 ? 0 : median(around(state.byHourOfWeek, week).map(Math.sqrt));
  return lineAt(Math.max(daily.center, weekly), daily.spread, params);
}

const pushed = (slots: readonly (readonly number[])[], index: number, value: number, keep: number) =>
  slots.map((slot, i) => (i === index ? [...slot, value].slice(-keep) : slot));

function rolledOver(state: SpendAnomalyState, hourStartMs: number, params: AnomalyParams): SpendAnomalyState {
  let { byHourOfDay, byHourOfWeek } = state;
  if (state.hourStartMs !== null) {
    byHourOfDay = pushed(byHourOfDay, hourOfDay(state.hourStartMs), state.hourPeak, params.dayHistory);
    byHourOfWeek = pushed(byHourOfWeek, hourOfWeek(state.hourStartMs), state.hourPeak, params.weekHistory);
  }
  const baseline = baselineOf({ byHourOfDay, byHourOfWeek }, hourStartMs, params);
  return {
    ...state,
    hourStartMs,
    hourPeak: 0,
    hourLow: null,
    previousHourLow: state.hourLow ?? null,
    byHourOfDay,
    byHourOfWeek,
    line: baseline?.line ?? null,
    expected: baseline?.expected ?? null,
  };
}

/** Back near normal: at or under `clearShare` of the way from expected to the line (always, without a baseline). */
function isCalm(state: SpendAnomalyState, rate: MicroUsd, params: AnomalyParams): boolean {
  if (state.line === null || state.expected === null) return true;
  return rate <= state.expected + params.clearShare * (state.line - state.expected);
}

/**
 * Whether a rate over its line is new spend: some run since the previous
 * hour began was at or under this line, so the rate rose past it rather than
 * the line falling under it.
 */
function isNew(state: SpendAnomalyState): boolean {
  const lows = [state.previousHourLow, state.hourLow].filter((low): low is number => typeof low === 'number');
  return lows.length === 0 || (state.line !== null && Math.min(...lows) <= state.line);
}

/**
 * How far past the line a rate must be to be in excess: the cheapest
 * instance running (the step spend moves in), but never more than the line's
 * own margin over expected, so one big instance on a tenant that normally
 * runs nothing is still an excess.
 */
function wholeStep(state: SpendAnomalyState, leases: readonly LeaseSpend[]): number {
  const cheapest = leases.reduce(
    (least, lease) => Math.min(least, lease.instanceHourlyMicroUsd ?? lease.hourlyMicroUsd),
    Number.POSITIVE_INFINITY,
  );
  return Math.min(cheapest, (state.line ?? 0) - (state.expected ?? 0));
}

/**
 * One metering run's running leases (what each costs per hour at `atMs`)
 * through the detector: the new state, and the alert when this run opens an
 * episode. Runs must come in time order.
 */
export function observeSpend(
  previous: SpendAnomalyState,
  atMs: number,
  leases: readonly LeaseSpend[],
  params: AnomalyParams = DEFAULT_ANOMALY_PARAMS,
): { state: SpendAnomalyState; alert?: SpendAnomalyAlert } {
  const rateMicroUsdPerHour = leases.reduce((sum, lease) => sum + lease.hourlyMicroUsd, 0);
  const hourStartMs = Math.floor(atMs / HOUR_MS) * HOUR_MS;
  let state = previous.hourStartMs === hourStartMs ? previous : rolledOver(previous, hourStartMs, params);
  state = { ...state, hourPeak: Math.max(state.hourPeak, rateMicroUsdPerHour) };
  let unexplained = rateMicroUsdPerHour;
  if (params.explanation !== null) {
    const advanced = advanceExplanation(
      state.explanation ?? EMPTY_EXPLANATION,
      atMs,
      leases,
      params.explanation,
    );
    state = { ...state, explanation: advanced.state };
    unexplained -= advanced.explainedMicroUsdPerHour;
    if (state.line !== null && state.episode === null && unexplained > state.line) {
      const known = explainExcess(advanced.state, atMs, leases, unexplained, state.line, params.explanation);
      if (known !== null) {
        state = { ...state, explanation: known.state };
        unexplained = rateMicroUsdPerHour - known.explainedMicroUsdPerHour;
      }
    }
  }
  // Rate alone (no explanation) is the detector as it was before leases were read: no whole-step or new-spend check.
  const excess =
    state.line !== null &&
    unexplained > state.line &&
    (params.explanation === null ||
      (unexplained - state.line >= wholeStep(state, leases) && (state.excessRuns > 0 || isNew(state))));
  state = { ...state, hourLow: Math.min(state.hourLow ?? unexplained, unexplained) };
  if (!excess) {
    const calmRuns = isCalm(state, unexplained, params) ? state.calmRuns + 1 : 0;
    const episode = state.episode !== null && calmRuns >= params.clearRuns ? null : state.episode;
    return { state: { ...state, excessRuns: 0, excessSinceMs: null, calmRuns, episode } };
  }
  const excessRuns = state.excessRuns + 1;
  const excessSinceMs = state.excessSinceMs ?? atMs;
  state = { ...state, excessRuns, excessSinceMs, calmRuns: 0 };
  if (state.episode !== null || excessRuns < params.sustainRuns) return { state };
  const alert: SpendAnomalyAlert = {
    alertId: `anomaly#${excessSinceMs}`,
    startedAtMs: excessSinceMs,
    atMs,
    rateMicroUsdPerHour,
    expectedMicroUsdPerHour: Math.round(state.expected ?? 0),
    lineMicroUsdPerHour: Math.round(state.line ?? 0),
  };
  return { state: { ...state, episode: { startedAtMs: excessSinceMs, alertedAtMs: atMs } }, alert };
}

/**
 * The leases an alert names: those started since the hour before the excess
 * began (the likeliest cause), dearest first, else the dearest of all.
 */
export function leasesDrivingAnomaly(
  leases: readonly LeaseSpend[],
  alert: Pick<SpendAnomalyAlert, 'startedAtMs'>,
  limit = 5,
): LeaseSpend[] {
  const byCost = [...leases].sort((a, b) => b.hourlyMicroUsd - a.hourlyMicroUsd);
  const recent = byCost.filter((lease) => lease.startedAtMs >= alert.startedAtMs - HOUR_MS);
  return (recent.length > 0 ? recent : byCost).slice(0, limit);
}
