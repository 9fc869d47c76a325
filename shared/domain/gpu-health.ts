import type { Datapoint } from './scaling';

/** A GPU above this temperature is unhealthy (NVIDIA data-centre GPUs throttle from the high 80s). */
export const DEFAULT_GPU_TEMPERATURE_LIMIT_C = 85;
/** A running GPU with no datapoint for this long is unhealthy: its agent, driver or instance is gone. */
export const GPU_SILENCE_LIMIT_MS = 5 * 60_000;

export interface SeriesSummary {
  readonly avg: number | null;
  readonly p95: number | null;
  readonly max: number | null;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** Average, 95th percentile (nearest rank) and maximum of a series' values; null when empty. */
export function summarizeSeries(values: readonly number[]): SeriesSummary {
  if (values.length === 0) return { avg: null, p95: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil(0.95 * sorted.length) - 1;
  return {
    avg: round1(values.reduce((sum, v) => sum + v, 0) / values.length),
    p95: round1(sorted[rank] as number),
    max: round1(sorted.at(-1) as number),
  };
}

export type GpuHealthStatus = 'ok' | 'hot' | 'silent';

export interface GpuHealthInput {
  /** Temperature datapoints, any order. */
  readonly temperature: readonly Datapoint[];
  /** The newest datapoint of any of the GPU's series, if there is one. */
  readonly newestDatapointMs: number | undefined;
  readonly launchedAtMs: number;
  readonly nowMs: number;
  readonly temperatureLimitC: number;
}

export interface GpuHealth {
  readonly status: GpuHealthStatus;
  readonly reason: string;
}

/**
 * Hot: the latest temperature is above the limit. Silent: running past the
 * silence limit with no datapoint in it. A GPU that only just started is
 * given that long to report before its silence counts.
 */
export function judgeGpuHealth(input: GpuHealthInput): GpuHealth {
  const silentForMs = input.nowMs - (input.newestDatapointMs ?? input.launchedAtMs);
  if (input.nowMs - input.launchedAtMs >= GPU_SILENCE_LIMIT_MS && silentForMs >= GPU_SILENCE_LIMIT_MS) {
    return { status: 'silent', reason: `no datapoint for ${Math.floor(silentForMs / 60_000)} minutes` };
  }
  if (input.newestDatapointMs === undefined) {
    // Not "reporting": it has said nothing yet, and has until the silence limit to start.
    const limit = GPU_SILENCE_LIMIT_MS / 60_000;
    return {
      status: 'ok',
      reason: `starting: no datapoint yet, silent if none within ${limit} minutes of launch`,
    };
  }
  const latest = [...input.temperature].sort((a, b) => b.timestampMs - a.timestampMs)[0];
  if (latest !== undefined && latest.value > input.temperatureLimitC) {
    return {
      status: 'hot',
      reason: `${round1(latest.value)}°C is above the ${input.temperatureLimitC}°C limit`,
    };
  }
  return { status: 'ok', reason: 'reporting, within the temperature limit' };
}
