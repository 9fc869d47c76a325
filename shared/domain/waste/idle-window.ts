import { GPU_METRIC_PERIOD_SECONDS } from '../gpu-telemetry';
import { type GpuRef, gpuRefKey } from './gpu-indexes';

const MINUTE_MS = GPU_METRIC_PERIOD_SECONDS * 1000;

/** One per-minute utilization sample of one GPU (`minuteMs`: the start of the agent's period). */
export interface UtilizationSample {
  readonly minuteMs: number;
  readonly percent: number;
}

/** The samples read for one GPU, in any order. */
export interface GpuSeries {
  readonly gpu: GpuRef;
  readonly samples: readonly UtilizationSample[];
}

export interface IdleWindowInput {
  /** Every GPU the lease holds: a GPU without a series is silent, never idle. */
  readonly gpus: readonly GpuRef[];
  readonly series: readonly GpuSeries[];
  /** Since when every instance of the lease has been running (the latest launch). */
  readonly runningSinceMs: number;
  /** Telemetry is complete up to here (the evaluator passes its run time less the agent's delay). */
  readonly atMs: number;
  readonly belowPercent: number;
  readonly forMinutes: number;
}

export interface SilentGpu {
  readonly gpu: GpuRef;
  /** Minutes of the window without a sample from this GPU. */
  readonly missingMinutes: number;
}

interface Window {
  readonly windowStartMs: number;
  readonly windowEndMs: number;
}

/**
 * - `idle`: every GPU sent a sample for every minute of the window and each was below the line;
 * - `busy`: some GPU reached the line in some minute (ends an idle episode);
 * - `silent`: nothing reached the line but some GPU has minutes without samples: a health problem,
 *   never idleness;
 * - `too-short`: the lease has not run for a whole window yet.
 * `silentGpus` is on every verdict that read telemetry, so a health check can report them even
 * when another GPU is busy.
 */
export type IdleVerdict =
  | (Window & { readonly kind: 'too-short' })
  | (Window & {
      readonly kind: 'busy';
      readonly busyGpus: readonly GpuRef[];
      readonly peakPercent: number;
      readonly silentGpus: readonly SilentGpu[];
    })
  | (Window & { readonly kind: 'silent'; readonly silentGpus: readonly SilentGpu[] })
  | (Window & { readonly kind: 'idle'; readonly peakPercent: number; readonly meanPercent: number });

/** The window judged at `atMs`: the last `forMinutes` whole minutes before it. */
export function idleWindowAt(atMs: number, forMinutes: number): Window {
  const windowEndMs = Math.floor(atMs / MINUTE_MS) * MINUTE_MS;
  return { windowStartMs: windowEndMs - forMinutes * MINUTE_MS, windowEndMs };
}

/**
 * Whether a lease stayed idle over the window: every GPU of it below the line
 * for every minute. One GPU at work keeps the whole lease busy (a 4-GPU lease
 * training on one GPU is not idle); a minute without a sample is not a minute
 * below the line. Linear in the samples.
 */
export function judgeIdleWindow(input: IdleWindowInput): IdleVerdict {
  const window = idleWindowAt(input.atMs, input.forMinutes);
  if (input.runningSinceMs > window.windowStartMs) return { kind: 'too-short', ...window };
  const byGpu = new Map(input.series.map((s) => [gpuRefKey(s.gpu), s.samples]));
  const busyGpus: GpuRef[] = [];
  const silentGpus: SilentGpu[] = [];
  let peakPercent = 0;
  let sum = 0;
  let count = 0;
  for (const gpu of input.gpus) {
    const seen = new Set<number>();
    let busy = false;
    for (const sample of byGpu.get(gpuRefKey(gpu)) ?? []) {
      if (sample.minuteMs < window.windowStartMs || sample.minuteMs >= window.windowEndMs) continue;
      if (seen.has(sample.minuteMs)) continue;
      seen.add(sample.minuteMs);
      peakPercent = Math.max(peakPercent, sample.percent);
      sum += sample.percent;
      count += 1;
      if (sample.percent >= input.belowPercent) busy = true;
    }
    if (busy) busyGpus.push(gpu);
    if (seen.size < input.forMinutes) silentGpus.push({ gpu, missingMinutes: input.forMinutes - seen.size });
  }
  if (busyGpus.length > 0) return { kind: 'busy', ...window, busyGpus, peakPercent, silentGpus };
  if (silentGpus.length > 0 || input.gpus.length === 0) return { kind: 'silent', ...window, silentGpus };
  return { kind: 'idle', ...window, peakPercent, meanPercent: sum / count };
}

/** A lease's idle episode as stored between evaluations: open since the start of its first idle window. */
export interface IdleEpisodeState {
  readonly openSinceMs?: number | undefined;
}

export const NO_IDLE_EPISODE: IdleEpisodeState = {};

export interface EpisodeStep {
  readonly state: IdleEpisodeState;
  /** Set on the one evaluation that opens an episode: the policy acts now, and only now. */
  readonly opened?: { readonly episodeId: string; readonly idleSinceMs: number } | undefined;
}

/** Deterministic per episode, so a retried evaluation claims the same notice and release. */
export const idleEpisodeId = (leaseId: string, idleSinceMs: number) => `${leaseId}#idle#${idleSinceMs}`;

/**
 * Episodes: the first idle verdict opens one (and the action happens then);
 * further idle verdicts change nothing; only a busy verdict closes it, so a
 * lease acts again only after it was busy in between. Silent and too-short
 * verdicts neither open nor close one: no telemetry proves no work, nor work.
 */
export function advanceIdleEpisode(
  leaseId: string,
  state: IdleEpisodeState,
  verdict: IdleVerdict,
): EpisodeStep {
  if (verdict.kind === 'busy') return { state: NO_IDLE_EPISODE };
  if (verdict.kind !== 'idle' || state.openSinceMs !== undefined) return { state };
  const idleSinceMs = verdict.windowStartMs;
  return {
    state: { openSinceMs: idleSinceMs },
    opened: { episodeId: idleEpisodeId(leaseId, idleSinceMs), idleSinceMs },
  };
}
