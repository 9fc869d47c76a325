/**
 * The fleet metrics a scaling rule can watch. GPU figures are what nvidia-smi
 * reports, averaged over the fleet's running instances; queue depth is the
 * number of requests waiting for the fleet.
 */
export const SCALING_METRICS = {
  gpuUtilization: { unit: '%', min: 0, max: 100 },
  gpuMemoryUsed: { unit: '%', min: 0, max: 100 },
  gpuTemperature: { unit: '°C', min: 0, max: 120 },
  gpuPower: { unit: ' W', min: 0, max: 2000 },
  queueDepth: { unit: '', min: 0, max: Number.MAX_SAFE_INTEGER },
} as const satisfies Record<string, { unit: string; min: number; max: number }>;

export type ScalingMetric = keyof typeof SCALING_METRICS;

export const SCALING_METRIC_NAMES = Object.keys(SCALING_METRICS) as [ScalingMetric, ...ScalingMetric[]];

export interface Datapoint {
  readonly timestampMs: number;
  readonly value: number;
}

/** One series per watched metric, fleet-aggregated; any order (CloudWatch returns newest first). */
export type MetricSeries = Readonly<Partial<Record<ScalingMetric, readonly Datapoint[]>>>;

/** A value as people read it in a decision reason, e.g. "81.3%", "74°C" or "250 W". */
export function formatMetricValue(metric: ScalingMetric, value: number): string {
  return `${Number(value.toFixed(1))}${SCALING_METRICS[metric].unit}`;
}
