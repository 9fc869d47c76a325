import { leaseMetricNamespace } from './tasks/lease-machine-access';

/**
 * GPU telemetry as the CloudWatch agent's `nvidia_gpu` plugin publishes it: the
 * agent's own metric names, one series per instance and GPU index, in the
 * lease's own namespace (`leaseMetricNamespace`): the one only that lease's
 * machine credentials may put metrics into, so that what a reader finds there
 * can only have come from the lease's own machines. The agent configuration
 * the lease's machine gets, the local load simulator, the idle policy, the
 * scaling evaluator, GPU health and the metrics route all use these;
 * `gpuIndexesOf` (waste/gpu-indexes.ts) says which indexes an instance type reports.
 */
export const gpuMetricNamespace = (lease: { readonly tenantId: string; readonly leaseId: string }) =>
  leaseMetricNamespace(lease.tenantId, lease.leaseId);

export const NVIDIA_SMI_METRICS = {
  utilization: 'nvidia_smi_utilization_gpu',
  memoryUsed: 'nvidia_smi_memory_used',
  memoryTotal: 'nvidia_smi_memory_total',
  temperature: 'nvidia_smi_temperature_gpu',
  power: 'nvidia_smi_power_draw',
} as const;

export type NvidiaSmiMetric = keyof typeof NVIDIA_SMI_METRICS;

/** The agent publishes every `metrics_collection_interval`; gpurent configures one minute. */
export const GPU_METRIC_PERIOD_SECONDS = 60;

/**
 * Seconds per datapoint a lease's metrics can be read at: the agent's minute and
 * the 5-minute and hourly periods CloudWatch aggregates it to. Strings, as a
 * query parameter or a command-line flag gives them.
 */
export const METRIC_PERIODS = ['60', '300', '3600'] as const;
export type MetricPeriod = (typeof METRIC_PERIODS)[number];

/** The dimensions of one GPU's series: the instance the agent appends, and the GPU index. */
export function gpuDimensions(instanceId: string, gpuIndex: number): Record<string, string> {
  return { InstanceId: instanceId, index: String(gpuIndex) };
}
