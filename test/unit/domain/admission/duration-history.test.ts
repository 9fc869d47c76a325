import { describe, expect, it } from 'vitest';
import {
  HISTORY_WINDOW,
  remainingDuration,
  samplesOfWindows,
  withDuration,
} from '../../../../shared/domain/admission/duration-history';

const MINUTE = 60_000;

describe('the recorded history of lease durations', () => {
  it('keeps the newest HISTORY_WINDOW durations of a key, dropping the oldest', () => {
    let window: number[] = [];
    for (let i = 1; i <= HISTORY_WINDOW + 3; i++) window = withDuration(window, i);

    expect(window).toHaveLength(HISTORY_WINDOW);
    expect(window[0]).toBe(4);
    expect(window.at(-1)).toBe(HISTORY_WINDOW + 3);
  });

  it("reads every tenant's windows as per-tenant and per-workload samples, ascending", () => {
    const samples = samplesOfWindows([
      { tenantId: 'a', workload: 'training', durationsMs: [30, 10, 20] },
      { tenantId: 'b', workload: 'training', durationsMs: [15] },
      { tenantId: 'a', workload: 'batch', durationsMs: [5] },
    ]);

    expect(samples.byTenantWorkload).toEqual({
      'a#training': [10, 20, 30],
      'b#training': [15],
      'a#batch': [5],
    });
    expect(samples.byWorkload).toEqual({ training: [10, 15, 20, 30], batch: [5] });
  });

  it("estimates from the tenant's own history once it has enough, else the workload's", () => {
    const five = [10, 20, 30, 40, 50].map((m) => m * MINUTE);
    const own = samplesOfWindows([{ tenantId: 'a', workload: 'training', durationsMs: five }]);

    expect(remainingDuration(own, 'a', 'training', 0)).toEqual({
      ms: 30 * MINUTE,
      basis: 'history:tenant-workload',
    });
    expect(remainingDuration(own, 'b', 'training', 0)).toEqual({
      ms: 30 * MINUTE,
      basis: 'history:workload',
    });
    expect(remainingDuration(own, 'a', 'batch', 0).basis).toBe('default');
  });
});
