import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../shared/catalog';
import type { Datapoint } from '../../../shared/domain/scaling';
import type { MetricQuery, MetricReader } from '../../../shared/ports/metrics';
import { readGpuUtilization } from '../../../shared/usecases/gpu-utilization';
import { DAY, HOUR, NOV_2026, ranLease } from '../audit/lease-views';

/** Answers each query from `series` by statistic and instance, and records what was asked. */
function recordingReader(series: Record<string, Datapoint[]>) {
  const calls: { queries: readonly MetricQuery[]; fromMs: number; toMs: number }[] = [];
  const reader: MetricReader = {
    async read(queries, fromMs, toMs) {
      calls.push({ queries, fromMs, toMs });
      return queries.map(
        (q) =>
          series[`${q.statistic} ${q.dimensions.InstanceId}#${q.dimensions.index}`] ??
          series[`${q.statistic} ${q.dimensions.InstanceId}`] ??
          [],
      );
    },
  };
  return { reader, calls };
}

describe('readGpuUtilization', () => {
  const leases = [
    ranLease('a', 'training', 2, 'on-demand', NOV_2026 + 90 * 60_000, NOV_2026 + 5 * HOUR),
    ranLease('b', 'batch', 1, 'spot', NOV_2026 - 10 * HOUR, NOV_2026 - 2 * HOUR), // before the window
    ranLease('c', 'inference', 1, 'on-demand', NOV_2026 + 2 * HOUR, undefined), // still running
  ];

  it('asks Sum and SampleCount by the clock hour for each GPU that ran in the window, once', async () => {
    const { reader, calls } = recordingReader({});
    const now = NOV_2026 + 6 * HOUR + 20 * 60_000;
    const gpus = await readGpuUtilization(reader, priceCatalog, leases, {
      fromMs: NOV_2026 + 30 * 60_000,
      toMs: NOV_2026 + 7 * HOUR,
      nowMs: now,
      periodMs: HOUR,
    });
    expect(calls).toHaveLength(1);
    const [call] = calls;
    // Widened to whole hours, and no later than now's hour.
    expect(call?.fromMs).toBe(NOV_2026);
    expect(call?.toMs).toBe(NOV_2026 + 7 * HOUR);
    expect(call?.queries.map((q) => `${q.statistic} ${q.dimensions.InstanceId} ${q.periodSeconds}`)).toEqual([
      'Sum i-a-0 3600',
      'SampleCount i-a-0 3600',
      'Sum i-a-1 3600',
      'SampleCount i-a-1 3600',
      'Sum i-c-0 3600',
      'SampleCount i-c-0 3600',
    ]);
    expect(call?.queries.every((q) => q.metricName === 'nvidia_smi_utilization_gpu')).toBe(true);
    expect(gpus.map((g) => [g.instanceId, g.toMs])).toEqual([
      ['i-a-0', NOV_2026 + 5 * HOUR],
      ['i-a-1', NOV_2026 + 5 * HOUR],
      ['i-c-0', now],
    ]);
  });

  it('joins the two statistics hour by hour and drops hours the agent sent nothing in', async () => {
    const { reader } = recordingReader({
      'Sum i-c-0': [
        { timestampMs: NOV_2026 + 2 * HOUR, value: 1800 },
        { timestampMs: NOV_2026 + 3 * HOUR, value: 0 },
      ],
      'SampleCount i-c-0': [
        { timestampMs: NOV_2026 + 2 * HOUR, value: 60 },
        { timestampMs: NOV_2026 + 3 * HOUR, value: 0 },
      ],
    });
    const window = {
      fromMs: NOV_2026,
      toMs: NOV_2026 + 4 * HOUR,
      nowMs: NOV_2026 + 4 * HOUR,
      periodMs: HOUR,
    };
    const [, , c] = await readGpuUtilization(reader, priceCatalog, leases, window);
    expect(c?.periods).toEqual([{ startMs: NOV_2026 + 2 * HOUR, sumPercent: 1800, samples: 60 }]);
  });

  it('reads a profile by the UTC day, widening the window to whole days', async () => {
    const { reader, calls } = recordingReader({});
    await readGpuUtilization(reader, priceCatalog, leases, {
      fromMs: NOV_2026 + 5 * HOUR,
      toMs: NOV_2026 + 30 * HOUR,
      nowMs: NOV_2026 + 40 * HOUR,
      periodMs: DAY,
    });
    expect(calls[0]).toMatchObject({ fromMs: NOV_2026, toMs: NOV_2026 + 2 * DAY });
    expect(calls[0]?.queries.every((q) => q.periodSeconds === 86_400)).toBe(true);
  });

  it('reads nothing when no GPU ran in the window', async () => {
    const { reader, calls } = recordingReader({});
    expect(
      await readGpuUtilization(reader, priceCatalog, leases.slice(1, 2), {
        fromMs: NOV_2026,
        toMs: NOV_2026 + HOUR,
        nowMs: NOV_2026 + HOUR,
        periodMs: HOUR,
      }),
    ).toEqual([]);
    expect(calls).toHaveLength(0);
  });

  it('reads every GPU of a multi-GPU instance, not GPU 0 alone', async () => {
    const eightGpu = ranLease('p', 'training', 1, 'on-demand', NOV_2026, undefined);
    const p4d = {
      ...eightGpu,
      instances: eightGpu.instances.map((i) => ({ ...i, instanceType: 'p4d.24xlarge' })),
    };
    const { reader, calls } = recordingReader({
      'Sum i-p-0#7': [{ timestampMs: NOV_2026, value: 600 }],
      'SampleCount i-p-0#7': [{ timestampMs: NOV_2026, value: 60 }],
    });
    const gpus = await readGpuUtilization(reader, priceCatalog, [p4d], {
      fromMs: NOV_2026,
      toMs: NOV_2026 + HOUR,
      nowMs: NOV_2026 + HOUR,
      periodMs: HOUR,
    });
    expect(calls[0]?.queries.filter((q) => q.statistic === 'Sum').map((q) => q.dimensions.index)).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
    ]);
    expect(gpus).toHaveLength(8);
    expect(gpus[7]?.periods).toEqual([{ startMs: NOV_2026, sumPercent: 600, samples: 60 }]);
    expect(gpus[0]?.periods).toEqual([]);
  });
});
