import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../../shared/catalog';
import { type CapacityPool, poolKey } from '../../../../shared/domain/admission/claims';
import {
  changedLimits,
  type FleetCapacityInput,
  fleetPoolLimits,
  vcpuQuotaKeys,
} from '../../../../shared/domain/admission/fleet-capacity';
import { commitment, NOW } from './fixtures';

const P_ON_DEMAND = { kind: 'vcpu', region: 'us-east-1', family: 'P', market: 'on-demand' } as const;
const P_SPOT = { ...P_ON_DEMAND, market: 'spot' } as const;
const SLOTS = { kind: 'slots', region: 'us-east-1', zone: 'us-east-1a', instanceType: 'p3.8xlarge' } as const;

const input = (overrides: Partial<FleetCapacityInput>): FleetCapacityInput => ({
  quotas: [],
  commitments: [],
  claims: [],
  instances: [],
  stored: [],
  catalog: priceCatalog,
  nowMs: NOW,
  ...overrides,
});

const limitOf = (limits: ReturnType<typeof fleetPoolLimits>, pool: Parameters<typeof poolKey>[0]) =>
  limits.find((limit) => poolKey(limit) === poolKey(pool))?.limit;

describe('fleet pool limits', () => {
  it('lists each GPU region × family × market once', () => {
    const keys = vcpuQuotaKeys(['us-east-1', 'us-west-2']);
    expect(keys).toHaveLength(8);
    expect(new Set(keys.map((k) => `${k.region}#${k.family}#${k.market}`)).size).toBe(8);
  });

  it('takes a known quota as the limit, and writes nothing for a quota not known', () => {
    const limits = fleetPoolLimits(
      input({ quotas: [{ region: 'us-east-1', family: 'P', market: 'on-demand', vcpus: 64 }] }),
    );
    expect(limits).toEqual([{ ...P_ON_DEMAND, limit: 64 }]);
    expect(limitOf(limits, P_SPOT)).toBeUndefined();
  });

  it('subtracts live instances no admission claim covers (warm machines, leases admitted before the pool), not stopped ones or covered ones', () => {
    const p3 = { region: 'us-east-1', instanceType: 'p3.2xlarge', mode: 'on-demand' as const };
    const limits = fleetPoolLimits(
      input({
        quotas: [
          { region: 'us-east-1', family: 'P', market: 'on-demand', vcpus: 64 },
          { region: 'us-east-1', family: 'P', market: 'spot', vcpus: 64 },
        ],
        claims: [
          { leaseId: 'admitted', pool: { key: poolKey(P_ON_DEMAND), units: 8 } },
          { leaseId: 'before-the-pool', pool: undefined },
        ],
        instances: [
          { ...p3, state: 'running' }, // a warm machine booting
          { ...p3, state: 'stopped' }, // a warm machine kept: no running quota
          { ...p3, state: 'pending', leaseId: 'before-the-pool' },
          { ...p3, state: 'running', leaseId: 'admitted' },
          { ...p3, mode: 'spot', state: 'running', leaseId: 'outside' },
        ],
      }),
    );
    expect(limitOf(limits, P_ON_DEMAND)).toBe(64 - 2 * 8);
    expect(limitOf(limits, P_SPOT)).toBe(64 - 8);
  });

  it('counts the capacity reservation whole against the on-demand quota, less its holders charged to that pool', () => {
    const limits = fleetPoolLimits(
      input({
        quotas: [{ region: 'us-east-1', family: 'P', market: 'on-demand', vcpus: 256 }],
        commitments: [
          commitment({
            capacityReservationId: 'cr-1',
            holders: {
              charged: { gpus: 4, startedAtMs: NOW, interruptible: false },
              reserved: { gpus: 4, startedAtMs: NOW, interruptible: false },
            },
          }),
          commitment({ id: 'no-reservation' }),
        ],
        claims: [
          { leaseId: 'charged', pool: { key: poolKey(P_ON_DEMAND), units: 32 } },
          { leaseId: 'reserved', pool: { key: poolKey(SLOTS), units: 1 } },
        ],
      }),
    );
    // 3 reserved p3.8xlarge (32 vCPUs each), one of them already in the pool's `used`.
    expect(limitOf(limits, P_ON_DEMAND)).toBe(256 - 2 * 32);
  });

  it('gives a slots pool its active commitments, less what holders hold outside the pool, and 0 once they ended', () => {
    const ended: CapacityPool = { ...SLOTS, zone: 'us-east-1b', limit: 2, used: 0 };
    const limits = fleetPoolLimits(
      input({
        commitments: [
          commitment({
            holders: {
              inPool: { gpus: 4, startedAtMs: NOW, interruptible: false },
              onDemandCharged: { gpus: 2, startedAtMs: NOW, interruptible: true },
            },
          }),
          commitment({ id: 'c2', count: 2 }),
          commitment({ id: 'future', startMs: NOW + 1 }),
          commitment({ id: 'old', zone: 'us-east-1b', endMs: NOW }),
        ],
        claims: [
          { leaseId: 'inPool', pool: { key: poolKey(SLOTS), units: 1 } },
          { leaseId: 'onDemandCharged', pool: { key: poolKey(P_ON_DEMAND), units: 32 } },
        ],
        stored: [ended],
      }),
    );
    expect(limitOf(limits, SLOTS)).toBe(3 + 2 - 1);
    expect(limitOf(limits, ended)).toBe(0);
  });

  it('never goes below zero', () => {
    const limits = fleetPoolLimits(
      input({
        quotas: [{ region: 'us-east-1', family: 'G', market: 'on-demand', vcpus: 4 }],
        instances: [
          { region: 'us-east-1', instanceType: 'g5.12xlarge', mode: 'on-demand', state: 'running' },
        ],
      }),
    );
    expect(limits[0]?.limit).toBe(0);
  });

  it('rewrites only the limits that changed', () => {
    const stored: CapacityPool[] = [
      { ...P_ON_DEMAND, limit: 64, used: 8 },
      { ...P_SPOT, limit: 16, used: 0 },
    ];
    expect(
      changedLimits(
        [
          { ...P_ON_DEMAND, limit: 64 },
          { ...P_SPOT, limit: 32 },
          { ...SLOTS, limit: 1 },
        ],
        stored,
      ),
    ).toEqual([
      { ...P_SPOT, limit: 32 },
      { ...SLOTS, limit: 1 },
    ]);
  });
});
