/**
 * Spend anomalies on per-tenant spend series built from the trace: its tasks
 * dealt to tenants by a hash of their name, each GPU at the replay's hourly
 * price, the spend rate read once a minute (one metering run) over the trace's
 * last 35 days. Anomalies are injected on top (seeded) and three detectors
 * scored on the same series: gpurent's (shared/domain/waste/spend-anomaly), a
 * fixed threshold and a daily check.
 */
import {
  type AnomalySensitivity,
  DEFAULT_ANOMALY_PARAMS,
  emptyAnomalyState,
  type LeaseSpend,
  observeSpend,
} from '../../shared/domain/waste/spend-anomaly';
import { seededRandom } from './random';
import { median } from './stats';
import type { IdleTask } from './waste-idle';
import { hashOf } from './waste-utilization';

const MINUTE_MS = 60_000;
const DAY_MINUTES = 1440;
export const SERIES_DAYS = 35;
export const TENANTS = 8;

/** A lease of a series: minutes from its start, `to` the first minute it no longer runs; µ$/h. */
export interface SpendLease {
  readonly id: string;
  readonly from: number;
  readonly to: number;
  readonly cost: number;
  /** µ$/h of one of its instances (the replay's types have one GPU each): the step its spend moves in. */
  readonly instanceCost: number;
}

export interface SpendSeries {
  readonly tenant: number;
  readonly startMs: number;
  /** µ$/h at each minute: what `leases` running then cost. */
  readonly rates: Float64Array;
  readonly leases: readonly SpendLease[];
}

/** The spend rate of each minute from leases. */
export function ratesOf(leases: readonly SpendLease[], minutes: number): Float64Array {
  const delta = new Float64Array(minutes + 1);
  for (const lease of leases) {
    delta[lease.from] = (delta[lease.from] ?? 0) + lease.cost;
    delta[lease.to] = (delta[lease.to] ?? 0) - lease.cost;
  }
  const rates = new Float64Array(minutes);
  let running = 0;
  for (let i = 0; i < minutes; i++) {
    running += delta[i] ?? 0;
    rates[i] = running;
  }
  return rates;
}

/**
 * How tasks are dealt to tenants: `random-half`, 8 tenants each taking every
 * task with probability ½ (seeded: tenants of about 19 GPUs, drawn
 * independently, so they overlap); `hash-8`, a hash of the task's name into 8
 * disjoint tenants of about 5 GPUs (small tenants); `workload`, by qos class.
 */
export type TenantSplit = 'random-half' | 'hash-8' | 'workload';

/** The tenants each task belongs to. */
function tenantsOf(split: TenantSplit, seed: number): (task: IdleTask) => number[] {
  if (split === 'workload') return (task) => [['training', 'inference', 'batch'].indexOf(task.workload)];
  if (split === 'hash-8') return (task) => [hashOf(task.id) % TENANTS];
  const random = seededRandom(seed);
  return () => Array.from({ length: TENANTS }, (_, t) => t).filter(() => random() < 0.5);
}

export function tenantSeries(
  tasks: readonly IdleTask[],
  endMs: number,
  gpuMicroUsdPerHour: number,
  split: TenantSplit,
  tenantSeed = 0,
): SpendSeries[] {
  const tenantsOfTask = tenantsOf(split, tenantSeed);
  const startMs =
    Math.floor(endMs / (DAY_MINUTES * MINUTE_MS)) * DAY_MINUTES * MINUTE_MS -
    SERIES_DAYS * DAY_MINUTES * MINUTE_MS;
  const minutes = SERIES_DAYS * DAY_MINUTES;
  const leases: SpendLease[][] = Array.from({ length: split === 'workload' ? 3 : TENANTS }, () => []);
  for (const task of tasks) {
    const from = Math.max(0, Math.ceil((task.startMs - startMs) / MINUTE_MS));
    const to = Math.min(minutes, Math.ceil((task.endMs - startMs) / MINUTE_MS));
    if (to <= from) continue;
    for (const tenant of tenantsOfTask(task)) {
      leases[tenant]?.push({
        id: task.id,
        from,
        to,
        cost: task.gpus * gpuMicroUsdPerHour,
        instanceCost: gpuMicroUsdPerHour,
      });
    }
  }
  return leases.map((own, tenant) => ({ tenant, startMs, rates: ratesOf(own, minutes), leases: own }));
}

export const ANOMALY_KINDS = ['step', 'ramp', 'spike'] as const;
export type AnomalyKind = (typeof ANOMALY_KINDS)[number];

export interface Stretch {
  readonly from: number;
  /** First minute after it. */
  readonly to: number;
}

export interface Injected extends Stretch {
  readonly kind: AnomalyKind;
  /** µ$/h added at its full rate. */
  readonly added: number;
}

/**
 * What the tenant normally spends at `minute`: the median rate at that time of
 * day over the 7 days before, at least one GPU's price (a tenant idle then
 * still has a scale for its runaway).
 */
function normalAt(series: Pick<SpendSeries, 'rates'>, minute: number, floor: number): number {
  const days = Array.from({ length: 7 }, (_, d) => series.rates[minute - (d + 1) * DAY_MINUTES] ?? 0);
  return Math.max(floor, median(days));
}

/**
 * Stretches of the unmodified series that already look like the weakest
 * injected anomaly: from day 10 on (where anomalies go), at least 2 × normal
 * over normal for 10 minutes or more, stretches less than 30 minutes apart
 * taken as one. A detector that sees only the rate cannot tell these from an
 * injected one, yet each of its alerts on them scores as a false positive.
 */
export function naturalLookAlikes(series: Pick<SpendSeries, 'rates'>, floor: number): Stretch[] {
  const stretches: Stretch[] = [];
  let from: number | null = null;
  const close = (to: number) => {
    const last = stretches.at(-1);
    if (from !== null && to - from >= 10) {
      if (last !== undefined && from - last.to < 30)
        stretches[stretches.length - 1] = { from: last.from, to };
      else stretches.push({ from, to });
    }
    from = null;
  };
  for (let minute = 10 * DAY_MINUTES; minute < series.rates.length; minute++) {
    const normal = normalAt(series, minute, floor);
    if ((series.rates[minute] ?? 0) - normal >= 2 * normal) from ??= minute;
    else close(minute);
  }
  close(series.rates.length);
  return stretches;
}

/**
 * Whether the tenant's own unmodified series did what an injected anomaly
 * does, in the 14 days before it: spent at least its added rate over normal
 * for at least as long as it holds its full rate. Such an anomaly is, by the
 * series alone, something the tenant does anyway; the bench still counts it
 * as an anomaly to catch (the ground truth: the unmodified replay has
 * none, the injected ones are all anomalies), and reports how many there are.
 */
export function hasNaturalPrecedent(
  series: Pick<SpendSeries, 'rates'>,
  anomaly: Injected,
  floor: number,
): boolean {
  const held = anomaly.kind === 'ramp' ? 60 : anomaly.to - anomaly.from;
  let run = 0;
  for (
    let minute = Math.max(7 * DAY_MINUTES, anomaly.from - 14 * DAY_MINUTES);
    minute < anomaly.from;
    minute++
  ) {
    const excess = (series.rates[minute] ?? 0) - normalAt(series, minute, floor);
    run = excess >= anomaly.added ? run + 1 : 0;
    if (run >= held) return true;
  }
  return false;
}

/**
 * One step, one ramp and one spike per tenant, at random times from day 10
 * on (a week of baseline and some), at least a day apart: a step adds 2-5 ×
 * the normal rate for 2-12 hours; a ramp grows to 2-5 × normal over 30-120
 * minutes and holds an hour; a spike adds 4-9 × normal for 10-30 minutes.
 *
 * The added spend is leases, as all spend is: a runaway repeats a job the
 * tenant runs (a loop relaunching it, an autoscaler gone wrong), so each
 * anomaly is copies of one of the tenant's own leases of the 7 days before
 * (drawn at random on a stream of its own, so the times and sizes above do not
 * depend on it), as many as make its added rate (at least one; their cost
 * split evenly so the rate is exactly the one above): a step's and a spike's
 * all start at its first minute, a ramp's one after another up its rise.
 * When the template is one of the tenant's big jobs, the anomaly is one or two
 * copies of it: the runaway looks like its own work at the start.
 */
export function injectAnomalies(
  series: SpendSeries,
  seed: number,
  floor: number,
): { rates: Float64Array; leases: SpendLease[]; injected: Injected[] } {
  const random = seededRandom(seed * 7919 + series.tenant);
  const pick = seededRandom(seed * 7919 + series.tenant + 104_729);
  const between = (lo: number, hi: number) => lo + (hi - lo) * random();
  const leases = [...series.leases];
  const injected: Injected[] = [];
  const slots = [10, 18, 26].map((day) => day + Math.floor(random() * 7));
  const kinds = [...ANOMALY_KINDS].sort(() => random() - 0.5);
  kinds.forEach((kind, index) => {
    const from = (slots[index] as number) * DAY_MINUTES + Math.floor(random() * DAY_MINUTES);
    const normal = normalAt(series, from, floor);
    const scale = kind === 'spike' ? between(4, 9) : between(2, 5);
    const rise = kind === 'ramp' ? Math.round(between(30, 120)) : 0;
    const length =
      kind === 'step'
        ? Math.round(between(120, 720))
        : kind === 'ramp'
          ? rise + 60
          : Math.round(between(10, 30));
    const to = Math.min(series.rates.length, from + length);
    const recent = series.leases.filter((l) => l.from < from && l.from >= from - 7 * DAY_MINUTES);
    const templateLease = recent[Math.floor(pick() * recent.length)];
    const template = templateLease?.cost ?? floor;
    // A copy has the template's instances, each at the copy's share of the added rate.
    const instances = templateLease ? templateLease.cost / templateLease.instanceCost : 1;
    const copies = Math.max(1, Math.round((scale * normal) / template));
    for (let j = 0; j < copies; j++) {
      // A ramp's j-th copy starts on the minute the straight rise to the full rate would pass it.
      const start = rise > 0 ? from + Math.ceil(((j + 1) * rise) / copies) - 1 : from;
      if (start < to)
        leases.push({
          id: `injected-${seed}-${index}-${j}`,
          from: start,
          to,
          cost: (scale * normal) / copies,
          instanceCost: (scale * normal) / copies / instances,
        });
    }
    injected.push({ kind, from, to: from + length, added: scale * normal });
  });
  return { rates: ratesOf(leases, series.rates.length), leases, injected };
}

/** An alert as scored: the minute it was raised and the stretch it speaks for. */
export interface ScoredAlert {
  readonly at: number;
  readonly coversFrom: number;
}

/** What a detector reads: the rate each minute and the leases behind it. */
export type SpendCase = Pick<SpendSeries, 'startMs' | 'rates' | 'leases'>;

export type Detector = (series: SpendCase) => ScoredAlert[];

/** The leases running at each minute, as the metering run reads them, for `visit`. */
function replayLeases(series: SpendCase, visit: (minute: number, running: readonly LeaseSpend[]) => void) {
  const starts = [...series.leases].sort((a, b) => a.from - b.from);
  const running = new Map<string, { lease: LeaseSpend; to: number }>();
  let next = 0;
  let current: LeaseSpend[] = [];
  for (let minute = 0; minute < series.rates.length; minute++) {
    let changed = false;
    for (const [id, r] of running) {
      if (r.to > minute) continue;
      running.delete(id);
      changed = true;
    }
    for (; next < starts.length && (starts[next] as SpendLease).from <= minute; next++) {
      const l = starts[next] as SpendLease;
      if (l.to <= minute) continue;
      const lease = {
        leaseId: l.id,
        startedAtMs: series.startMs + l.from * MINUTE_MS,
        hourlyMicroUsd: l.cost,
        instanceHourlyMicroUsd: l.instanceCost,
      };
      running.set(l.id, { lease, to: l.to });
      changed = true;
    }
    if (changed) current = [...running.values()].map((r) => r.lease);
    visit(minute, current);
  }
}

/** gpurent's detector; `explain: false` judges the rate alone (the detector before leases were read). */
export const gpurentDetector =
  (sensitivity: AnomalySensitivity, explain = true): Detector =>
  (series) => {
    const params = {
      ...DEFAULT_ANOMALY_PARAMS,
      sensitivity,
      ...(explain ? {} : { explanation: null }),
    };
    let state = emptyAnomalyState();
    const alerts: ScoredAlert[] = [];
    replayLeases(series, (minute, running) => {
      const step = observeSpend(state, series.startMs + minute * MINUTE_MS, running, params);
      state = step.state;
      if (step.alert)
        alerts.push({ at: minute, coversFrom: (step.alert.startedAtMs - series.startMs) / MINUTE_MS });
    });
    return alerts;
  };

/**
 * A fixed alarm: twice the tenant's mean rate over its first week, with the
 * same 3 runs in a row and 30 calm runs per episode as gpurent's.
 */
export const fixedThresholdDetector: Detector = ({ rates }) => {
  let sum = 0;
  for (let i = 0; i < 7 * DAY_MINUTES; i++) sum += rates[i] ?? 0;
  const line = (2 * sum) / (7 * DAY_MINUTES);
  const alerts: ScoredAlert[] = [];
  let run = 0;
  let calm = 0;
  let open = false;
  for (let i = 7 * DAY_MINUTES; i < rates.length; i++) {
    if ((rates[i] ?? 0) > line) {
      run += 1;
      calm = 0;
      if (!open && run >= 3) {
        open = true;
        alerts.push({ at: i, coversFrom: i - 2 });
      }
    } else {
      run = 0;
      calm += 1;
      if (calm >= 30) open = false;
    }
  }
  return alerts;
};

/**
 * A daily check, as AWS Cost Anomaly Detection works on daily cost (at best
 * at the day's end): a day's total is anomalous above median + 3.5 / 0.6745 ×
 * MAD of the 14 days before (7 at least); one alert per run of anomalous days.
 */
export const dailyCheckDetector: Detector = ({ rates }) => {
  const totals: number[] = [];
  const alerts: ScoredAlert[] = [];
  let open = false;
  for (let day = 0; day * DAY_MINUTES < rates.length; day++) {
    let total = 0;
    for (let i = day * DAY_MINUTES; i < (day + 1) * DAY_MINUTES; i++) total += rates[i] ?? 0;
    const history = totals.slice(-14);
    totals.push(total);
    if (history.length < 7) continue;
    const center = median(history);
    const mad = Math.max(median(history.map((v) => Math.abs(v - center))), 0.05 * center);
    const anomalous = total > center + (3.5 / 0.6745) * mad;
    if (anomalous && !open) alerts.push({ at: (day + 1) * DAY_MINUTES - 1, coversFrom: day * DAY_MINUTES });
    open = anomalous;
  }
  return alerts;
};

export interface DetectionScore {
  readonly injected: number;
  readonly detected: number;
  readonly alerts: number;
  readonly truePositiveAlerts: number;
  readonly recall: number;
  readonly precision: number;
  readonly medianDelayRuns: number | null;
  readonly delayRunsByKind: Readonly<Record<string, number | null>>;
  readonly alertsOnCleanSeries: number;
  /** False alerts that meet a natural look-alike (`naturalLookAlikes`): not injected, but shaped like it. */
  readonly falseOnLookAlikes: number;
}

/** The scoring's one rule: an alert speaks for a stretch when its own stretch meets it, up to an hour after. */
const meets = (alert: ScoredAlert, stretch: Stretch) =>
  alert.coversFrom < stretch.to + 60 && alert.at >= stretch.from;

/**
 * An alert is a true positive when the stretch it speaks for meets an
 * injected anomaly (up to an hour after its end); an anomaly is detected by
 * its first such alert, its delay the runs from its first minute to that alert,
 * both counted (an alert on the third anomalous run: delay 3).
 */
export function scoreDetector(
  detector: Detector,
  cases: readonly {
    clean: SpendSeries;
    rates: Float64Array;
    leases: readonly SpendLease[];
    injected: readonly Injected[];
    lookAlikes: readonly Stretch[];
  }[],
): DetectionScore {
  let injected = 0;
  let detected = 0;
  let alerts = 0;
  let truePositives = 0;
  let clean = 0;
  let falseOnLookAlikes = 0;
  const delays: number[] = [];
  const byKind: Record<string, number[]> = {};
  // Every seed's case of a tenant shares its clean series: judged once.
  const cleanAlerts = new Map<SpendSeries, number>();
  for (const c of cases) {
    if (!cleanAlerts.has(c.clean)) cleanAlerts.set(c.clean, detector(c.clean).length);
    clean += cleanAlerts.get(c.clean) ?? 0;
    const raised = detector({ startMs: c.clean.startMs, rates: c.rates, leases: c.leases });
    alerts += raised.length;
    const falseAlerts = raised.filter((a) => !c.injected.some((x) => meets(a, x)));
    truePositives += raised.length - falseAlerts.length;
    falseOnLookAlikes += falseAlerts.filter((a) => c.lookAlikes.some((s) => meets(a, s))).length;
    for (const x of c.injected) {
      injected += 1;
      const first = raised.find((a) => meets(a, x));
      if (first === undefined) continue;
      detected += 1;
      delays.push(first.at - x.from + 1);
      byKind[x.kind] = [...(byKind[x.kind] ?? []), first.at - x.from + 1];
    }
  }
  return {
    injected,
    detected,
    alerts,
    truePositiveAlerts: truePositives,
    recall: detected / injected,
    precision: alerts === 0 ? 0 : truePositives / alerts,
    medianDelayRuns: delays.length === 0 ? null : median(delays),
    delayRunsByKind: Object.fromEntries(
      ANOMALY_KINDS.map((kind) => [kind, byKind[kind] ? median(byKind[kind] as number[]) : null]),
    ),
    alertsOnCleanSeries: clean,
    falseOnLookAlikes,
  };
}
