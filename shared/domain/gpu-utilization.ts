import { GPU_METRIC_PERIOD_SECONDS } from './gpu-telemetry';

/** The periods telemetry is read at: clock hours (by hour of day) or UTC days (per day). */
export const UTILIZATION_HOUR_MS = 3_600_000;
export const UTILIZATION_DAY_MS = 24 * UTILIZATION_HOUR_MS;

/** One GPU's utilization samples within one period: their sum (%) and how many the agent sent. */
export interface PeriodSamples {
  readonly startMs: number;
  readonly sumPercent: number;
  readonly samples: number;
}

/** A GPU that ran over [fromMs, toMs), with the telemetry read for it (periods without samples absent). */
export interface MeasuredGpu {
  readonly instanceId: string;
  readonly fromMs: number;
  readonly toMs: number;
  readonly periods: readonly PeriodSamples[];
}

/**
 * Utilization over a stretch of time. `percent` is the average of every
 * per-minute sample of every GPU (each sample one GPU-minute, so busy fleets
 * weigh more than a lone GPU); null when no GPU sent any sample: missing data
 * is no telemetry, not 0%. `telemetry` is `partial` when some GPU that ran sent
 * nothing.
 */
export interface Utilization {
  readonly percent: number | null;
  readonly telemetry: 'complete' | 'partial' | 'none';
  /** GPU-hours the samples cover (one sample per GPU-minute). */
  readonly measuredGpuHours: number;
  /** GPUs that ran in the stretch and sent no sample in it. */
  readonly gpusWithoutTelemetry: number;
}

/** A stretch in which no GPU ran. */
export const NO_TELEMETRY: Utilization = {
  percent: null,
  telemetry: 'none',
  measuredGpuHours: 0,
  gpusWithoutTelemetry: 0,
};

const SAMPLE_HOURS = GPU_METRIC_PERIOD_SECONDS / 3600;
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Joins the Sum and SampleCount series of one GPU into its periods with samples. */
export function periodSamples(
  sums: readonly { timestampMs: number; value: number }[],
  counts: readonly { timestampMs: number; value: number }[],
): PeriodSamples[] {
  const sumAt = new Map(sums.map((d) => [d.timestampMs, d.value]));
  return counts
    .filter((count) => count.value > 0 && sumAt.has(count.timestampMs))
    .map((count) => ({
      startMs: count.timestampMs,
      sumPercent: sumAt.get(count.timestampMs) ?? 0,
      samples: count.value,
    }));
}

/** The GPU-weighted utilization of the periods starting in [fromMs, toMs), over the GPUs that ran then. */
export function utilizationOver(gpus: readonly MeasuredGpu[], fromMs: number, toMs: number): Utilization {
  let sum = 0;
  let samples = 0;
  let silent = 0;
  for (const gpu of gpus) {
    if (gpu.toMs <= fromMs || gpu.fromMs >= toMs) continue;
    const inside = gpu.periods.filter((p) => p.startMs >= fromMs && p.startMs < toMs);
    const gpuSamples = inside.reduce((total, p) => total + p.samples, 0);
    if (gpuSamples === 0) silent += 1;
    samples += gpuSamples;
    sum += inside.reduce((total, p) => total + p.sumPercent, 0);
  }
  return {
    percent: samples === 0 ? null : round(sum / samples, 1),
    telemetry: samples === 0 ? 'none' : silent > 0 ? 'partial' : 'complete',
    measuredGpuHours: round(samples * SAMPLE_HOURS, 3),
    gpusWithoutTelemetry: silent,
  };
}

/** The GPU-weighted utilization of each hour of the day (UTC) from hourly periods; null for an hour never measured. */
export function utilizationByHourOfDay(gpus: readonly MeasuredGpu[]): (number | null)[] {
  const sums = new Array<number>(24).fill(0);
  const samples = new Array<number>(24).fill(0);
  for (const hour of gpus.flatMap((gpu) => gpu.periods)) {
    const hourOfDay = new Date(hour.startMs).getUTCHours();
    sums[hourOfDay] = (sums[hourOfDay] ?? 0) + hour.sumPercent;
    samples[hourOfDay] = (samples[hourOfDay] ?? 0) + hour.samples;
  }
  return sums.map((sum, h) => (samples[h] ? round(sum / (samples[h] ?? 1), 1) : null));
}

/** How the figures are computed, for the API and the report to say. */
export const UTILIZATION_METHOD =
  'GPU utilization from the CloudWatch agent (nvidia_smi_utilization_gpu, one sample per GPU-minute), ' +
  'read per period (Sum and SampleCount per GPU; by the UTC day for a profile, by the hour for an audit): ' +
  'the average of every sample of every GPU, so each GPU-minute weighs the same. Periods count whole (a ' +
  'range cut mid-day includes the whole day). No sample is "no telemetry" (null), never 0%.';

/** Everything read: the GPUs that ran in the window over every period read for them. */
export const utilizationOfAll = (gpus: readonly MeasuredGpu[]): Utilization =>
  utilizationOver(gpus, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);

/**
 * The utilization of each UTC day of [fromMs, toMs) from daily periods, keyed
 * `yyyy-mm-dd`; days count whole, as the telemetry is read by the day.
 */
export function dailyUtilization(
  gpus: readonly MeasuredGpu[],
  fromMs: number,
  toMs: number,
): Map<string, Utilization> {
  const days = new Map<string, Utilization>();
  const first = Math.floor(fromMs / UTILIZATION_DAY_MS) * UTILIZATION_DAY_MS;
  for (let dayStart = first; dayStart < toMs; dayStart += UTILIZATION_DAY_MS) {
    const day = new Date(dayStart).toISOString().slice(0, 10);
    days.set(day, utilizationOver(gpus, dayStart, Math.min(dayStart + UTILIZATION_DAY_MS, toMs)));
  }
  return days;
}
