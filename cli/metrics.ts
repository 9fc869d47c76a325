import type { MetricPeriod } from '../shared/domain/gpu-telemetry';
import { type CliIo, callApi, leaseIdArgument, type OutputOptions, print } from './common';
import { table } from './table';

type Series = { unit: string; avg: number | null; p95: number | null; max: number | null };

type LeaseMetrics = {
  leaseId: string;
  from: string;
  to: string;
  period: number;
  instances: {
    instanceId: string;
    gpus: {
      index: number;
      utilization: Series;
      memoryUsed: Series;
      temperature: Series;
      power: Series;
      health?: { status: string; reason?: string };
    }[];
  }[];
};

const value = (v: number | null) => (v === null ? '-' : String(Math.round(v * 10) / 10));
/** avg / p95 / max in one cell. */
const stats = (s: Series) => `${value(s.avg)} / ${value(s.p95)} / ${value(s.max)}`;

export interface MetricsOptions extends OutputOptions {
  readonly from?: string;
  readonly to?: string;
  readonly period?: MetricPeriod;
}

export async function leaseMetrics(id: string, options: MetricsOptions, io: CliIo) {
  const leaseId = leaseIdArgument(id);
  const result = await callApi<LeaseMetrics>('GET', `v1/leases/${leaseId}/metrics`, {
    query: { from: options.from, to: options.to, period: options.period },
  });
  print(io, options, result, () => {
    const rows = result.instances.flatMap((instance) =>
      instance.gpus.map((gpu) => [
        instance.instanceId,
        gpu.index,
        gpu.health && [gpu.health.status, gpu.health.reason].filter(Boolean).join(': '),
        stats(gpu.utilization),
        stats(gpu.memoryUsed),
        stats(gpu.temperature),
        stats(gpu.power),
      ]),
    );
    const heading = `${result.leaseId}, ${result.from} → ${result.to}, by ${result.period} s (avg / p95 / max)\n`;
    if (rows.length === 0) return `${heading}no GPU datapoints in this range\n`;
    return (
      heading +
      table(
        ['INSTANCE', 'GPU', 'HEALTH', 'UTILIZATION %', 'MEMORY USED %', 'TEMPERATURE °C', 'POWER W'],
        rows,
      )
    );
  });
}
