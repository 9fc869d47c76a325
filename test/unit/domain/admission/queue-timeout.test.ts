import { describe, expect, it } from 'vitest';
import { splitTimedOut, waitsEndingBeforeNextPass } from '../../../../shared/domain/admission/queue-timeout';

const NOW = Date.parse('2026-12-06T12:00:00.000Z');
const MINUTE = 60_000;
const waiting = (leaseId: string, queuedAtMs: number, maxWaitMinutes: number) => ({
  leaseId,
  queuedAtMs,
  maxWaitMinutes,
});

describe('waits ending before the next scheduled pass', () => {
  it('lists the waits that end after the pass and at most a schedule minute later', () => {
    const queue = [
      waiting('ends-now', NOW - 5 * MINUTE, 5),
      waiting('ends-in-1ms', NOW - 2 * MINUTE + 1, 2),
      waiting('ends-in-59.5s', NOW - MINUTE + 59_500, 1),
      waiting('ends-at-next-pass', NOW - 59 * MINUTE, 60),
      waiting('ends-after-next-pass', NOW - 59 * MINUTE + 1, 60),
      waiting('long-wait', NOW, 10_080),
    ];
    expect(waitsEndingBeforeNextPass(queue, NOW).map((lease) => lease.leaseId)).toEqual([
      'ends-in-1ms',
      'ends-in-59.5s',
      'ends-at-next-pass',
    ]);
  });

  it('leaves the wait that has ended to the pass itself, which times it out', () => {
    const queue = [waiting('ended', NOW - 5 * MINUTE, 5)];
    expect(waitsEndingBeforeNextPass(queue, NOW)).toEqual([]);
    expect(splitTimedOut(queue, NOW).timedOut).toEqual(queue);
  });

  it('gives every wait to exactly one pass of a schedule that runs every minute', () => {
    // Leases joining the queue at odd instants, with waits of 1 to 7 minutes.
    const queue = Array.from({ length: 50 }, (_, i) => waiting(`lease-${i}`, NOW + i * 7_919, 1 + (i % 7)));
    const passes = Array.from({ length: 30 }, (_, k) => NOW + k * MINUTE);
    const sentBy = new Map<string, number[]>();
    for (const passMs of passes) {
      const inQueue = queue.filter((lease) => lease.queuedAtMs <= passMs);
      for (const lease of waitsEndingBeforeNextPass(inQueue, passMs)) {
        sentBy.set(lease.leaseId, [...(sentBy.get(lease.leaseId) ?? []), passMs]);
      }
    }
    for (const lease of queue) {
      const endsMs = lease.queuedAtMs + lease.maxWaitMinutes * MINUTE;
      const [passMs, ...again] = sentBy.get(lease.leaseId) ?? [];
      expect(again).toEqual([]);
      // The last pass before the wait ends.
      expect(endsMs).toBeGreaterThan(passMs ?? Number.NaN);
      expect(endsMs - (passMs ?? Number.NaN)).toBeLessThanOrEqual(MINUTE);
    }
  });
});
