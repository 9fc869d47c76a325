import { describe, expect, it } from 'vitest';
import { demandProfile, percentileOf } from '../../../shared/domain/demand-profile';
import type { LeaseInstance, LeaseView, RentalMode, Workload } from '../../../shared/domain/lease';

const DAY = Date.parse('2026-11-10T00:00:00Z');
const H = 3_600_000;

function lease(
  id: string,
  workload: Workload,
  createdAtMs: number,
  runs: { at: number; until?: number; mode?: RentalMode; type?: string }[],
): LeaseView {
  return {
    tenantId: 't',
    leaseId: id,
    workload,
    gpus: runs.length,
    instanceType: 'g5.xlarge',
    status: 'RUNNING',
    createdAtMs,
    updatedAtMs: createdAtMs,
    instances: runs.map(
      (run, i) =>
        ({
          instanceId: `${id}-${i}`,
          instanceType: run.type ?? 'g5.xlarge',
          mode: run.mode ?? 'on-demand',
          launchedAtMs: run.at,
          endedAtMs: run.until,
        }) as LeaseInstance,
    ),
  };
}

const gpusOf = (type: string) => (type === 'p4d.24xlarge' ? 8 : 1);

describe('demand profile', () => {
  // Day 1: training 00:00-12:00 (1 GPU), batch on spot 06:00-09:00 (2 GPUs), inference on an
  // 8-GPU instance 10:00-11:00. Day 2: training continues until 06:00.
  const leases = [
    lease('train', 'training', DAY - 60_000, [{ at: DAY, until: DAY + 30 * H }]),
    lease('batch', 'batch', DAY + 6 * H - 30_000, [
      { at: DAY + 6 * H, until: DAY + 9 * H, mode: 'spot' },
      { at: DAY + 6 * H, until: DAY + 9 * H, mode: 'spot' },
    ]),
    lease('serve', 'inference', DAY + 10 * H - 5_000, [
      { at: DAY + 10 * H, until: DAY + 11 * H, type: 'p4d.24xlarge' },
    ]),
  ];

  it('computes GPU-hours, average and peak concurrency per day by hand', () => {
    const [day1, day2] = demandProfile(leases, DAY, DAY + 2 * 86_400_000, DAY + 3 * 86_400_000, gpusOf);
    // 24 (training all day) + 6 (batch) + 8 (inference) GPU-hours.
    expect(day1).toMatchObject({
      day: '2026-11-10',
      gpuHours: 38,
      avgConcurrentGpus: 1.583,
      peakConcurrentGpus: 9,
    });
    expect(day1?.byWorkload).toEqual({
      training: { gpuHours: 24, avgConcurrentGpus: 1, peakConcurrentGpus: 1 },
      batch: { gpuHours: 6, avgConcurrentGpus: 0.25, peakConcurrentGpus: 2 },
      inference: { gpuHours: 8, avgConcurrentGpus: 0.333, peakConcurrentGpus: 8 },
    });
    expect(day1?.byMode).toMatchObject({ spot: { gpuHours: 6 }, 'on-demand': { gpuHours: 32 } });
    expect(day2).toMatchObject({ day: '2026-11-11', gpuHours: 6, peakConcurrentGpus: 1 });
  });

  it('measures the wait from request to the first running instance, per day of request', () => {
    const [day1, day2] = demandProfile(leases, DAY, DAY + 2 * 86_400_000, DAY + 3 * 86_400_000, gpusOf);
    // Requested on day 1: batch waited 30 s, inference 5 s (training was requested the day before).
    expect(day1?.waitSeconds).toEqual({ leases: 2, p50: 5, p95: 30 });
    expect(day2?.waitSeconds).toEqual({ leases: 0, p50: null, p95: null });
  });

  it('runs an instance still running until now, and averages the current day over its elapsed part', () => {
    const running = [lease('open', 'training', DAY, [{ at: DAY }])];
    const [today] = demandProfile(running, DAY, DAY + 86_400_000, DAY + 6 * H, gpusOf);
    expect(today).toMatchObject({ gpuHours: 6, avgConcurrentGpus: 1, peakConcurrentGpus: 1 });
  });

  it('does not count a replacement starting as another ends as a peak', () => {
    const handover = [
      lease('a', 'training', DAY, [
        { at: DAY, until: DAY + H },
        { at: DAY + H, until: DAY + 2 * H },
      ]),
    ];
    expect(
      demandProfile(handover, DAY, DAY + 86_400_000, DAY + 86_400_000, gpusOf)[0]?.peakConcurrentGpus,
    ).toBe(1);
  });

  it('takes nearest-rank percentiles', () => {
    expect(percentileOf([], 0.5)).toBeNull();
    expect(percentileOf([4, 1, 3, 2], 0.5)).toBe(2);
    expect(percentileOf([4, 1, 3, 2], 0.95)).toBe(4);
  });
});
