import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../../shared/catalog';
import type { WaitingLease } from '../../../../shared/domain/admission/admission-pass';
import {
  DEFAULT_LEASE_DURATION_MS,
  type DurationSamples,
  durationSamplesOf,
  remainingDuration,
} from '../../../../shared/domain/admission/duration-history';
import {
  type EstimateInput,
  estimatedEnd,
  estimateWaits,
  type RunningLease,
} from '../../../../shared/domain/admission/wait-estimate';
import { candidate, MINUTE, NOW, pQuota, quota, waiting } from './fixtures';

const minutes = (...values: number[]) => values.map((m) => m * MINUTE);
const NO_HISTORY: DurationSamples = { byTenantWorkload: {}, byWorkload: {} };

const running = (tenantId: string, gpus: number, overrides: Partial<RunningLease> = {}): RunningLease => ({
  leaseId: `run-${tenantId}-${gpus}`,
  tenantId,
  workload: 'training',
  gpus,
  launch: candidate(gpus),
  startedAtMs: NOW - 10 * MINUTE,
  ...overrides,
});

const usageOf = (leases: readonly RunningLease[]) => {
  const usage: Record<string, { gpus: number; hourlyMicroUsd: number; gpusByMode: Record<string, number> }> =
    {};
  for (const lease of leases) {
    const use = usage[lease.tenantId] ?? { gpus: 0, hourlyMicroUsd: 0, gpusByMode: {} };
    use.gpus += lease.gpus;
    use.hourlyMicroUsd += lease.launch.hourlyMicroUsd;
    usage[lease.tenantId] = use;
  }
  return usage;
};

function estimate(
  queue: readonly WaitingLease[],
  runningNow: readonly RunningLease[],
  fleetGpus: number,
  overrides: Partial<EstimateInput> = {},
) {
  const used = runningNow.reduce((sum, lease) => sum + lease.gpus, 0);
  return estimateWaits({
    nowMs: NOW,
    queue,
    running: runningNow,
    usage: usageOf(runningNow),
    quotas: {},
    defaultQuota: quota(),
    capacity: pQuota(fleetGpus, used),
    catalog: priceCatalog,
    history: NO_HISTORY,
    ...overrides,
  });
}

describe('remaining duration', () => {
  const history = durationSamplesOf([
    ...minutes(20, 40, 60, 80, 100).map((durationMs) => ({
      tenantId: 'a',
      workload: 'training' as const,
      durationMs,
    })),
    ...minutes(5, 10, 15, 30, 45, 90).map((durationMs) => ({
      tenantId: 'b',
      workload: 'training' as const,
      durationMs,
    })),
  ]);

  it("takes the median of the tenant's own durations that outlasted the elapsed time", () => {
    // All five outlast 10 minutes: median 60, 50 to go.
    expect(remainingDuration(history, 'a', 'training', 10 * MINUTE)).toEqual({
      ms: 50 * MINUTE,
      basis: 'history:tenant-workload',
    });
  });

  it("falls back to the workload's durations across tenants when the tenant's say too little", () => {
    const workload = remainingDuration(history, 'a', 'training', 35 * MINUTE);
    // Outlasting 35: a's 40, 60, 80, 100 (4 < 5); everyone's 40, 45, 60, 80, 90, 100: median (nearest rank) 60.
    expect(workload).toEqual({ ms: 25 * MINUTE, basis: 'history:workload' });
    expect(remainingDuration(history, 'c', 'training', 0)).toEqual({
      ms: 40 * MINUTE,
      basis: 'history:workload',
    });
  });

  it('uses the default without history, and runs an outlier as long again once it outlived everything', () => {
    expect(remainingDuration(history, 'a', 'inference', 20 * MINUTE)).toEqual({
      ms: DEFAULT_LEASE_DURATION_MS - 20 * MINUTE,
      basis: 'default',
    });
    expect(remainingDuration(history, 'a', 'training', 300 * MINUTE)).toEqual({
      ms: 300 * MINUTE,
      basis: 'outlived-history',
    });
  });
});

describe('estimated end of a running lease', () => {
  it('never lies after its expiry or its declared runtime, nor before now', () => {
    const lease = running('a', 1);
    expect(estimatedEnd({ ...lease, expiresAtMs: NOW + 5 * MINUTE }, NO_HISTORY, NOW)).toEqual({
      atMs: NOW + 5 * MINUTE,
      basis: 'lease-expiry',
    });
    expect(estimatedEnd({ ...lease, maxRuntimeMinutes: 30 }, NO_HISTORY, NOW)).toEqual({
      atMs: NOW + 20 * MINUTE,
      basis: 'declared-runtime',
    });
    expect(estimatedEnd({ ...lease, expiresAtMs: NOW - MINUTE }, NO_HISTORY, NOW)).toEqual({
      atMs: NOW,
      basis: 'lease-expiry',
    });
    expect(estimatedEnd({ ...lease, maxRuntimeMinutes: 600 }, NO_HISTORY, NOW)).toEqual({
      atMs: NOW + 50 * MINUTE,
      basis: 'default',
    });
  });
});

describe('wait estimate', () => {
  it('starts a lease held back by its quota when its own running lease expires', () => {
    const busy = running('a', 2, { expiresAtMs: NOW + 30 * MINUTE });
    const lease = waiting('a', 1);
    expect(estimate([lease], [busy], 8, { quotas: { a: quota({ maxGpus: 2 }) } })).toEqual([
      { leaseId: lease.leaseId, estimatedStartAtMs: NOW + 30 * MINUTE, estimateBasis: 'lease-expiry' },
    ]);
  });

  it('follows the releases in time order, the earliest freeing GPUs for the first in the queue', () => {
    const history = durationSamplesOf(
      minutes(20, 40, 60, 80, 100).map((durationMs) => ({
        tenantId: 'a',
        workload: 'training' as const,
        durationMs,
      })),
    );
    const a = running('a', 1); // ends at now + 50 minutes (history)
    const b = running('b', 1, { maxRuntimeMinutes: 30 }); // ends at now + 20 minutes (declared)
    const first = waiting('c', 1, { queuedAtMs: NOW - 5 * MINUTE });
    const second = waiting('c', 1, { queuedAtMs: NOW - 4 * MINUTE, maxRuntimeMinutes: 600 });
    expect(estimate([first, second], [a, b], 2, { history })).toEqual([
      { leaseId: first.leaseId, estimatedStartAtMs: NOW + 20 * MINUTE, estimateBasis: 'declared-runtime' },
      {
        leaseId: second.leaseId,
        estimatedStartAtMs: NOW + 50 * MINUTE,
        estimateBasis: 'history:tenant-workload',
      },
    ]);
  });

  it('counts the queue ahead: a lease admitted in the simulation runs its own estimated duration first', () => {
    const history = durationSamplesOf(
      minutes(30, 30, 30, 30, 30).map((durationMs) => ({
        tenantId: 'z',
        workload: 'training' as const,
        durationMs,
      })),
    );
    const busy = running('a', 1, { expiresAtMs: NOW + 10 * MINUTE });
    const ahead = waiting('b', 1, { queuedAtMs: NOW - 9 * MINUTE });
    const behind = waiting('c', 1, { queuedAtMs: NOW - 8 * MINUTE });
    expect(estimate([behind, ahead], [busy], 1, { history })).toEqual([
      { leaseId: behind.leaseId, estimatedStartAtMs: NOW + 40 * MINUTE, estimateBasis: 'history:workload' },
      { leaseId: ahead.leaseId, estimatedStartAtMs: NOW + 10 * MINUTE, estimateBasis: 'lease-expiry' },
    ]);
  });

  it('orders the simulated admissions by fair share, as the real passes will', () => {
    const aShort = running('a', 1, { leaseId: 'a-short', expiresAtMs: NOW + 10 * MINUTE });
    const aLong = running('a', 1, { leaseId: 'a-long', expiresAtMs: NOW + 100 * MINUTE });
    const b = running('b', 1, { expiresAtMs: NOW + 20 * MINUTE });
    const fromA = waiting('a', 1, { queuedAtMs: NOW - 20 * MINUTE, maxRuntimeMinutes: 60 });
    const fromC = waiting('c', 1, { queuedAtMs: NOW - MINUTE, maxRuntimeMinutes: 60 });
    // At +10 one GPU frees: c holds none and a still one, so c's younger lease goes first; a's at b's release.
    expect(estimate([fromA, fromC], [aShort, aLong, b], 3)).toEqual([
      { leaseId: fromA.leaseId, estimatedStartAtMs: NOW + 20 * MINUTE, estimateBasis: 'lease-expiry' },
      { leaseId: fromC.leaseId, estimatedStartAtMs: NOW + 10 * MINUTE, estimateBasis: 'lease-expiry' },
    ]);
  });

  it('says when a lease fits now, would time out first, or waits on no known release', () => {
    const fits = waiting('a', 1);
    const impatient = waiting('b', 1, { queuedAtMs: NOW - 50 * MINUTE, maxWaitMinutes: 60 });
    const tooBig = waiting('c', 4);
    const busy = running('d', 1, { expiresAtMs: NOW + 30 * MINUTE });
    expect(estimate([fits], [], 2)).toEqual([
      { leaseId: fits.leaseId, estimatedStartAtMs: NOW, estimateBasis: 'fits-now' },
    ]);
    expect(estimate([impatient, tooBig], [busy], 1)).toEqual([
      { leaseId: impatient.leaseId, estimatedStartAtMs: null, estimateBasis: 'times-out' },
      { leaseId: tooBig.leaseId, estimatedStartAtMs: null, estimateBasis: 'no-known-release' },
    ]);
  });

  it('estimates only the leases asked for, with the whole queue still ahead of them', () => {
    const busy = running('a', 1, { expiresAtMs: NOW + 10 * MINUTE });
    const ahead = waiting('b', 1, { queuedAtMs: NOW - 9 * MINUTE, maxRuntimeMinutes: 15 });
    const target = waiting('c', 1, { queuedAtMs: NOW - 8 * MINUTE });
    expect(estimate([ahead, target], [busy], 1, { leaseIds: new Set([target.leaseId, 'unknown']) })).toEqual([
      { leaseId: target.leaseId, estimatedStartAtMs: NOW + 25 * MINUTE, estimateBasis: 'declared-runtime' },
    ]);
  });
});
