import { describe, expect, it } from 'vitest';
import {
  type Commitment,
  commitmentPool,
  idleReserved,
  reservedGpusFor,
  usedGpus,
} from '../../../shared/domain/commitments';
import { chooseRentalMode } from '../../../shared/domain/rental-mode';

const NOW = Date.UTC(2026, 10, 30, 12);
const HOUR = 3_600_000;

function commitment(extra: Partial<Commitment> = {}): Commitment {
  return {
    id: 'c1',
    instanceType: 'g6.12xlarge',
    region: 'us-east-1',
    zone: 'us-east-1a',
    count: 2,
    gpusPerInstance: 4,
    hourlyMicroUsd: 3_000_000,
    startMs: NOW - HOUR,
    endMs: NOW + 720 * HOUR,
    holders: {},
    idleMeteredUntilMs: NOW - HOUR,
    ...extra,
  };
}

const lease = (leaseId: string, gpus: number, interruptible = false) => ({
  leaseId,
  gpus,
  startedAtMs: NOW,
  interruptible,
});

describe('reserved GPUs a commitment carries for a new lease', () => {
  const cases: [string, Partial<Commitment>, ReturnType<typeof lease>, number][] = [
    ['an empty commitment carries all it has', {}, lease('new', 8), 8],
    [
      'only the room left after the holders',
      { holders: { a: { gpus: 6, startedAtMs: NOW - HOUR, interruptible: false } } },
      lease('new', 4),
      2,
    ],
    ['nothing before the term starts', { startMs: NOW + HOUR }, lease('new', 4), 0],
    ['nothing after it ends', { endMs: NOW }, lease('new', 4), 0],
    [
      'holders keep their slots even when the policy would rank the newcomer first',
      { holders: { batch: { gpus: 8, startedAtMs: NOW - HOUR, interruptible: true } } },
      lease('new', 4),
      0,
    ],
  ];
  it.each(cases)('%s', (_name, extra, newcomer, expected) => {
    expect(reservedGpusFor(commitment(extra), newcomer, NOW)).toBe(expected);
  });

  it('feeds chooseRentalMode: reserved only when the commitment carries every GPU of the lease', () => {
    const half = commitment({ holders: { a: { gpus: 4, startedAtMs: NOW - HOUR, interruptible: false } } });
    const free = (gpus: number) => reservedGpusFor(half, lease('new', gpus), NOW);
    expect(chooseRentalMode({ workload: 'training', gpus: 4, freeReservedGpus: free(4) }).mode).toBe(
      'reserved',
    );
    expect(chooseRentalMode({ workload: 'training', gpus: 8, freeReservedGpus: free(8) }).mode).toBe(
      'on-demand',
    );
    expect(commitmentPool(half, lease('new', 4), NOW)).toMatchObject({
      mode: 'reserved',
      available: true,
      priceSource: 'commitment',
      commitmentId: 'c1',
    });
    expect(commitmentPool(half, lease('new', 8), NOW).available).toBe(false);
  });
});

describe('idle reserved time', () => {
  it('counts unused GPUs over whole seconds inside the term, at the instance rate', () => {
    const held = commitment({ holders: { a: { gpus: 4, startedAtMs: NOW, interruptible: false } } });
    expect(usedGpus(held)).toBe(4);
    // One idle 4-GPU instance for 30 minutes at $3/h.
    expect(idleReserved(held, NOW, NOW + HOUR / 2)).toEqual({
      idleGpuSeconds: 4 * 1800,
      idleMicroUsd: 1_500_000,
      untilMs: NOW + HOUR / 2,
    });
    // Clipped to the term; nothing before it starts.
    expect(idleReserved(commitment({ startMs: NOW }), NOW - HOUR, NOW).idleGpuSeconds).toBe(0);
    expect(idleReserved(commitment({ endMs: NOW + 1000 }), NOW, NOW + HOUR).idleGpuSeconds).toBe(8);
  });
});
