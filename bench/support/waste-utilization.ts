/**
 * GPU utilization for the trace's tasks, which the Alibaba trace does not
 * record: a seeded model, one sample per GPU-minute. Parameters, chosen from
 * public figures and not fitted to the trace:
 * - start-up: 2-8 minutes at 0-2 % (image pull, data loading) before any work;
 * - tail idle: 30 % of tasks finish their work early and hold the GPU idle
 *   (0-2 %) until deleted, for 10-70 % of their life (uniform), meant to sit
 *   near the 13-21 % of paid capacity found idle on empty nodes in
 *   pytorch/ci-infra#862 (with start-ups and stalls the run measures about
 *   10 % of GPU time below 5 %: conservative next to that range, and far from
 *   the 1.5 % median utilization a re-analysis of Alibaba's PAI trace reports);
 * - training and batch work: busy stretches (exponential, mean 20 minutes) at a
 *   level drawn per stretch from 30-95 % (± 5 % a minute), between stalls
 *   (checkpoints, input waits; exponential, mean 2 minutes, 0-3 %), 1 % of
 *   which are long pauses of 10-60 minutes (an evaluation on the CPU) after
 *   which the work resumes;
 * - inference (qos LS) work: a daily cycle of 15-60 % (peak 14:00 UTC) ± 10 %;
 * - multi-GPU tasks: 20 % use only GPU 0, the others idle at 0-1 %;
 * - telemetry: 0.1 % of samples lost at random, and 2 % of tasks have one GPU
 *   silent for 30-300 minutes.
 */
import { seededRandom } from './random';

const MINUTE_MS = 60_000;
/** Sample lost: no datapoint for that GPU-minute. */
export const MISSING = 255;

export const UTILIZATION_MODEL = {
  startupMinutes: [2, 8],
  tailIdleProbability: 0.3,
  tailIdleShare: [0.1, 0.7],
  busyMeanMinutes: 20,
  busyPercent: [30, 95],
  stallMeanMinutes: 2,
  longStallProbability: 0.01,
  longStallMinutes: [10, 60],
  inferencePercent: [15, 60],
  oneGpuProbability: 0.2,
  lostSampleProbability: 0.001,
  silentGpuProbability: 0.02,
  silentMinutes: [30, 300],
} as const;

export interface TaskUtilization {
  /** Minute 0 starts at the minute holding the task's start. */
  readonly firstMinuteMs: number;
  readonly minutes: number;
  /** Per GPU: the true utilization of each minute (0-100). */
  readonly truth: readonly Uint8Array[];
  /** Per GPU: what the agent sent (MISSING where the sample was lost). */
  readonly samples: readonly Uint8Array[];
  /** The last minute with work in it (-1: none): a release before it cut work short. */
  readonly lastWorkMinute: number;
}

/** FNV-1a: a stable number per task name, for seeding and dealing tasks out. */
export function hashOf(text: string): number {
  let h = 2_166_136_261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16_777_619);
  return h >>> 0;
}

export function utilizationOf(
  task: { id: string; workload: string; gpus: number; startMs: number; endMs: number },
  seed: number,
): TaskUtilization {
  const m = UTILIZATION_MODEL;
  const random = seededRandom(hashOf(task.id) ^ seed);
  const between = ([lo, hi]: readonly [number, number]) => lo + (hi - lo) * random();
  const exponential = (mean: number) => -Math.log(1 - random()) * mean;
  const firstMinuteMs = Math.floor(task.startMs / MINUTE_MS) * MINUTE_MS;
  const minutes = Math.max(1, Math.ceil((task.endMs - firstMinuteMs) / MINUTE_MS));
  const startup = Math.round(between(m.startupMinutes));
  const tail = random() < m.tailIdleProbability ? Math.round(minutes * between(m.tailIdleShare)) : 0;
  const workEnd = Math.max(startup, minutes - tail);
  // One work pattern for the task: GPUs of a data-parallel job are busy and stalled together.
  const work = new Uint8Array(minutes);
  let lastWorkMinute = -1;
  if (task.workload === 'inference') {
    for (let i = startup; i < workEnd; i++) {
      const hour = ((firstMinuteMs + i * MINUTE_MS) / 3_600_000) % 24;
      const [lo, hi] = m.inferencePercent;
      const level = lo + ((hi - lo) * (1 + Math.sin((2 * Math.PI * (hour - 8)) / 24))) / 2;
      work[i] = Math.max(6, Math.min(100, Math.round(level + 20 * (random() - 0.5))));
      lastWorkMinute = i;
    }
  } else {
    let i = startup;
    while (i < workEnd) {
      const busyEnd = Math.min(workEnd, i + Math.max(1, Math.round(exponential(m.busyMeanMinutes))));
      const level = between(m.busyPercent);
      for (; i < busyEnd; i++) {
        work[i] = Math.round(Math.min(100, level + 10 * (random() - 0.5)));
        lastWorkMinute = i;
      }
      const stall =
        random() < m.longStallProbability
          ? Math.round(between(m.longStallMinutes))
          : Math.round(exponential(m.stallMeanMinutes));
      const stallEnd = Math.min(workEnd, i + stall);
      for (; i < stallEnd; i++) work[i] = Math.floor(random() * 4);
    }
  }
  const oneGpu = task.gpus > 1 && random() < m.oneGpuProbability;
  const truth: Uint8Array[] = [];
  const samples: Uint8Array[] = [];
  const silentGpu = random() < m.silentGpuProbability ? Math.floor(random() * task.gpus) : -1;
  const silentFrom = Math.floor(random() * minutes);
  const silentTo = silentFrom + Math.round(between(m.silentMinutes));
  for (let gpu = 0; gpu < task.gpus; gpu++) {
    const own = new Uint8Array(minutes);
    const sent = new Uint8Array(minutes);
    for (let i = 0; i < minutes; i++) {
      const busy = (work[i] ?? 0) > 3 && !(oneGpu && gpu > 0);
      own[i] = busy ? (work[i] ?? 0) : Math.floor(random() * (i < startup || i >= workEnd ? 3 : 2));
      const lost =
        random() < m.lostSampleProbability || (gpu === silentGpu && i >= silentFrom && i < silentTo);
      sent[i] = lost ? MISSING : (own[i] ?? 0);
    }
    truth.push(own);
    samples.push(sent);
  }
  return { firstMinuteMs, minutes, truth, samples, lastWorkMinute };
}
