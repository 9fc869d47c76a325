import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../../shared/catalog';
import { gpuIndexesOf, gpusOfInstances } from '../../../../shared/domain/waste/gpu-indexes';
import {
  advanceIdleEpisode,
  type GpuSeries,
  type IdleVerdict,
  judgeIdleWindow,
  NO_IDLE_EPISODE,
} from '../../../../shared/domain/waste/idle-window';

const MINUTE = 60_000;
const T0 = Date.parse('2026-11-20T10:00:00Z');
const AT = T0 + 30 * MINUTE;
const gpus = [0, 1, 2, 3].map((gpuIndex) => ({ instanceId: 'i-1', gpuIndex }));

/** A 30-minute window of samples for each GPU, from `percent(gpu, minute)`; undefined drops the sample. */
function series(percent: (gpu: number, minute: number) => number | undefined): GpuSeries[] {
  return gpus.map((gpu) => ({
    gpu,
    samples: Array.from({ length: 30 }, (_, minute) => ({
      minuteMs: T0 + minute * MINUTE,
      percent: percent(gpu.gpuIndex, minute),
    })).filter((s): s is { minuteMs: number; percent: number } => s.percent !== undefined),
  }));
}

const judge = (s: GpuSeries[], overrides: Partial<Parameters<typeof judgeIdleWindow>[0]> = {}) =>
  judgeIdleWindow({
    gpus,
    series: s,
    runningSinceMs: T0 - MINUTE,
    atMs: AT + 20_000,
    belowPercent: 5,
    forMinutes: 30,
    ...overrides,
  });

describe('idle-window detection', () => {
  it('a 4-GPU lease with one busy GPU is busy, with all four below the line it is idle', () => {
    const oneBusy = judge(series((gpu) => (gpu === 2 ? 80 : 1)));
    expect(oneBusy.kind).toBe('busy');
    expect(oneBusy.kind === 'busy' && oneBusy.busyGpus).toEqual([{ instanceId: 'i-1', gpuIndex: 2 }]);
    const allIdle = judge(series(() => 4.9));
    expect(allIdle).toMatchObject({ kind: 'idle', windowStartMs: T0, windowEndMs: AT, peakPercent: 4.9 });
  });

  it('one minute at the line in the window is enough to be busy; a minute outside the window is not', () => {
    expect(judge(series((gpu, minute) => (gpu === 0 && minute === 29 ? 5 : 0))).kind).toBe('busy');
    const before = series(() => 0);
    const withOld = before.map((s) => ({
      ...s,
      samples: [...s.samples, { minuteMs: T0 - MINUTE, percent: 99 }],
    }));
    expect(judge(withOld).kind).toBe('idle');
  });

  it('missing data is never idle: a gap or a GPU without a series is silent, and named', () => {
    const gap = judge(series((gpu, minute) => (gpu === 3 && minute === 7 ? undefined : 0)));
    expect(gap).toMatchObject({
      kind: 'silent',
      silentGpus: [{ gpu: { instanceId: 'i-1', gpuIndex: 3 }, missingMinutes: 1 }],
    });
    const noSeries = judge(series(() => 0).slice(0, 3));
    expect(noSeries).toMatchObject({
      kind: 'silent',
      silentGpus: [{ gpu: { gpuIndex: 3 }, missingMinutes: 30 }],
    });
    const busyAndSilent = judge(series((gpu) => (gpu === 0 ? 90 : gpu === 1 ? undefined : 0)));
    expect(busyAndSilent).toMatchObject({
      kind: 'busy',
      silentGpus: [{ gpu: { gpuIndex: 1 }, missingMinutes: 30 }],
    });
  });

  it('a lease younger than the window is not judged', () => {
    expect(
      judge(
        series(() => 0),
        { runningSinceMs: T0 + MINUTE },
      ).kind,
    ).toBe('too-short');
  });

  it('is idle exactly when every GPU has a sample below the line in every minute (random telemetry)', () => {
    const cell = fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined, freq: 20 });
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 30, maxLength: 30 }), { minLength: 4, maxLength: 4 }),
        (grid) => {
          const verdict = judge(series((gpu, minute) => grid[gpu]?.[minute]));
          const cells = grid.flat();
          const idle = cells.every((c) => c !== undefined && c < 5);
          const busy = cells.some((c) => c !== undefined && c >= 5);
          expect(verdict.kind).toBe(idle ? 'idle' : busy ? 'busy' : 'silent');
        },
      ),
    );
  });
});

describe('idle episodes', () => {
  const verdict = (kind: IdleVerdict['kind'], windowStartMs: number): IdleVerdict =>
    kind === 'idle'
      ? { kind, windowStartMs, windowEndMs: windowStartMs + 30 * MINUTE, peakPercent: 0, meanPercent: 0 }
      : kind === 'busy'
        ? { kind, windowStartMs, windowEndMs: 0, busyGpus: [], peakPercent: 50, silentGpus: [] }
        : kind === 'silent'
          ? { kind, windowStartMs, windowEndMs: 0, silentGpus: [] }
          : { kind, windowStartMs, windowEndMs: 0 };

  it('acts once per episode: a new one opens only after the lease was busy again', () => {
    const kinds: IdleVerdict['kind'][] = [
      'too-short',
      'busy',
      'idle',
      'idle',
      'silent',
      'idle',
      'busy',
      'silent',
      'idle',
      'idle',
    ];
    let state = NO_IDLE_EPISODE;
    const opened: string[] = [];
    kinds.forEach((kind, run) => {
      const step = advanceIdleEpisode('lease-1', state, verdict(kind, T0 + run * MINUTE));
      state = step.state;
      if (step.opened) opened.push(step.opened.episodeId);
    });
    expect(opened).toEqual([`lease-1#idle#${T0 + 2 * MINUTE}`, `lease-1#idle#${T0 + 8 * MINUTE}`]);
  });

  it('silence never opens an episode', () => {
    expect(advanceIdleEpisode('lease-1', NO_IDLE_EPISODE, verdict('silent', T0)).opened).toBeUndefined();
  });
});

describe('GPU indexes of multi-GPU instances', () => {
  it('derives one index per GPU from the catalog, one device for fractional and unknown types', () => {
    expect(gpuIndexesOf(priceCatalog, 'p4d.24xlarge')).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(gpuIndexesOf(priceCatalog, 'g6.12xlarge')).toEqual([0, 1, 2, 3]);
    expect(gpuIndexesOf(priceCatalog, 'g6f.large')).toEqual([0]);
    expect(gpuIndexesOf(priceCatalog, 'x9.unknown')).toEqual([0]);
    expect(
      gpusOfInstances(priceCatalog, [
        { instanceId: 'i-a', instanceType: 'g6.xlarge' },
        { instanceId: 'i-b', instanceType: 'g6.12xlarge' },
      ]).map((g) => `${g.instanceId}/${g.gpuIndex}`),
    ).toEqual(['i-a/0', 'i-b/0', 'i-b/1', 'i-b/2', 'i-b/3']);
  });
});
