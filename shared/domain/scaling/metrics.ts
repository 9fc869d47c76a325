/**
 * The GPU metrics a scaling rule can watch, as the CloudWatch agent's
 * `nvidia_gpu` plugin publishes them (namespace `CWAgent`, one series per
 * instance and GPU index). `gpuMemoryUsed` is a percentage computed from the
 * agent's used and total memory, so that one threshold fits every GPU size.
 */
export const GPU_METRICS = {
  gpuUtilization: { unit: '%', min: 0, max: 100 },
  gpuMemoryUsed: { unit: '%', min: 0, max: 100 },
  gpuTemperature: { unit: '°C', min: 0, max: 120 },
  gpuPower: { unit: ' W', min: 0, max: 2000 },
} as const satisfies Record<string, { unit: string; min: number; max: number }>;

export type GpuMetric = keyof typeof GPU_METRICS;

export const GPU_METRIC_NAMES = Object.keys(GPU_METRICS) as [GpuMetric, ...GpuMetric[]];

/** How the GPUs of a fleet combine into one value per minute. */
export const GPU_STATISTICS = ['Average', 'Maximum', 'Minimum'] as const;
export type GpuStatistic = (typeof GPU_STATISTICS)[number];

/** CloudWatch statistics a custom metric may be read with; percentiles are p1 … p99.9. */
export const CUSTOM_STATISTICS = ['Average', 'Sum', 'Minimum', 'Maximum', 'SampleCount'] as const;
export const PERCENTILE_STATISTIC = /^p(?:[1-9]\d?(?:\.\d)?)$/;

export interface Datapoint {
  readonly timestampMs: number;
  readonly value: number;
}

/**
 * Fleet series keyed by `seriesKey` of the condition that reads them; any order
 * (CloudWatch returns newest first). A key that is absent means no data.
 */
export type MetricSeries = Readonly<Record<string, readonly Datapoint[]>>;

/** A value as people read it in a decision reason, e.g. "81.3%", "74°C", "250 W" or "420". */
export function formatMetricValue(unit: string, value: number): string {
  return `${Number(value.toFixed(1))}${unit}`;
}
