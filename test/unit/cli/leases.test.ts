import { describe, expect, it } from 'vitest';
import { queueForPeople } from '../../../cli/leases';

describe('gpurent lease ls: a queued lease', () => {
  it('shows its position, why it waits, the estimated start to the minute and its basis', () => {
    expect(
      queueForPeople({
        reason: 'quota',
        position: 2,
        estimatedStartAt: '2026-12-01T21:10:42.000Z',
        estimateBasis: 'running-ends',
      }),
    ).toBe('#2 (quota), starts ~2026-12-01T21:10Z (running-ends)');
  });

  it('says when no start can be estimated, and shows nothing for a lease that is not queued', () => {
    expect(queueForPeople({ reason: 'capacity', position: 1, estimateBasis: 'times-out' })).toBe(
      '#1 (capacity), no start estimate (times-out)',
    );
    expect(queueForPeople(undefined)).toBeUndefined();
  });
});
