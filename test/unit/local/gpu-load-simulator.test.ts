import { describe, expect, it } from 'vitest';
import { fleetUtilization, gpuLoadModelFromEnv } from '../../../local/runtime/gpu-load-simulator';

const MINUTE = 60_000;

describe('simulated GPU load', () => {
  it('is zero when idle and the chosen share when steady, whatever the fleet size', () => {
    expect(fleetUtilization({ kind: 'idle' }, MINUTE, 3)).toBe(0);
    expect(fleetUtilization({ kind: 'steady', percent: 70 }, MINUTE, 3)).toBe(70);
  });

  it('replays the trace at the chosen speed, shares it over the GPUs and caps it at 100%', () => {
    const model = {
      kind: 'replay' as const,
      requestsPerMinute: [100, 300, 500, 700, 10_000],
      speed: 2,
      requestsPerGpuMinute: 1_000,
      startedAtMs: 0,
    };

    // The first real minute replays trace minutes 0-1 (mean 200), the second 2-3 (mean 600).
    expect(fleetUtilization(model, MINUTE, 1)).toBe(20);
    expect(fleetUtilization(model, 2 * MINUTE, 2)).toBe(30);
    // Minutes 4-5 wrap around: (10,000 + 100) / 2 on one GPU is far beyond its capacity.
    expect(fleetUtilization(model, 3 * MINUTE, 1)).toBe(100);
  });

  it('reads its model from the environment and refuses what it does not know', () => {
    expect(gpuLoadModelFromEnv({}, 0)).toEqual({ kind: 'idle' });
    expect(gpuLoadModelFromEnv({ GPURENT_GPU_LOAD: 'steady', GPURENT_GPU_LOAD_PERCENT: '85' }, 0)).toEqual({
      kind: 'steady',
      percent: 85,
    });
    const replay = gpuLoadModelFromEnv({ GPURENT_GPU_LOAD: 'azure', GPURENT_GPU_LOAD_SPEED: '60' }, 5);
    expect(replay).toMatchObject({
      kind: 'replay',
      speed: 60,
      requestsPerGpuMinute: 250_000,
      startedAtMs: 5,
    });
    expect(replay.kind === 'replay' && replay.requestsPerMinute.length).toBe(48_405);
    expect(() => gpuLoadModelFromEnv({ GPURENT_GPU_LOAD: 'busy' }, 0)).toThrow(/idle.*steady.*azure/);
  });
});
