import { describe, expect, it } from 'vitest';
import { type FleetState, simulateFleet } from '../../../bench/support/fleet-simulation';

const OPTIONS = {
  requestsPerGpuMinute: 100,
  initialCapacity: 1,
  bootMinutes: 2,
  priceMicroUsdPerHour: 3_600_000,
};

describe('simulateFleet', () => {
  it('bills a static fleet for the whole trace and counts minutes over capacity as SLO misses', () => {
    const outcome = simulateFleet({ ...OPTIONS, requestsPerMinute: [50, 100, 150, 80] }, () => 1);

    expect(outcome).toEqual({
      gpuHours: 4 / 60,
      costMicroUsd: 240 * 1000,
      sloMissMinutes: 1,
      scaleOutActions: 0,
      scaleInActions: 0,
      peakCapacity: 1,
      meanUtilizationPercent: (50 + 100 + 100 + 80) / 4,
    });
  });

  it('serves with a launched GPU only after the boot delay, but bills it from launch', () => {
    const seen: FleetState[] = [];
    const outcome = simulateFleet({ ...OPTIONS, requestsPerMinute: [150, 150, 150, 150, 150] }, (state) => {
      seen.push(state);
      return 2;
    });

    // Launched at the end of minute 0, serving from minute 3: minutes 0–2 miss.
    expect(outcome.sloMissMinutes).toBe(3);
    expect(outcome.scaleOutActions).toBe(1);
    expect(outcome.gpuHours).toBe((5 + 4) / 60);
    expect(outcome.costMicroUsd).toBe(9 * 60 * 1000);
    expect(seen.map((s) => s.capacity)).toEqual([1, 2, 2, 2, 2]);
    expect(seen[1]?.lastAction).toEqual({ action: 'scale-out', atMs: 60_000 });
    expect(seen[4]?.utilization.map((d) => d.value)).toEqual([100, 100, 100, 75, 75]);
  });

  it('removes booting GPUs first and stops billing them at once', () => {
    const wanted = [3, 1, 1];
    const outcome = simulateFleet(
      { ...OPTIONS, requestsPerMinute: [10, 10, 10] },
      (state) => wanted[state.nowMs / 60_000 - 1] ?? 1,
    );

    expect(outcome).toMatchObject({
      scaleOutActions: 1,
      scaleInActions: 1,
      peakCapacity: 3,
      sloMissMinutes: 0,
    });
    // The original GPU runs 3 minutes; the two launched ones, 1 minute each.
    expect(outcome.gpuHours).toBe(5 / 60);
  });
});
