import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../../shared/catalog';
import {
  CapacityLedger,
  instanceFamily,
  launchFits,
  reservedSlotsOf,
  UnknownVcpusError,
  UnsupportedInstanceFamilyError,
} from '../../../../shared/domain/admission/capacity';
import type { Commitment } from '../../../../shared/domain/commitments';
import { commitment as committed, NOW, P3, pQuota } from './fixtures';

const launch = (instances: number, mode: 'on-demand' | 'spot' | 'reserved', instanceType = P3) => ({
  region: 'us-east-1',
  instanceType,
  instances,
  mode,
});

describe('instance family', () => {
  it.each([
    ['g4dn.xlarge', 'G'],
    ['g6e.48xlarge', 'G'],
    ['gr6.4xlarge', 'G'],
    ['vt1.3xlarge', 'G'],
    ['p3.2xlarge', 'P'],
    ['p6-b200.48xlarge', 'P'],
  ])('%s counts against the %s quota', (type, family) => {
    expect(instanceFamily(type)).toBe(family);
  });

  it('names a type of neither family', () => {
    expect(() => instanceFamily('trn1.32xlarge')).toThrow(UnsupportedInstanceFamilyError);
  });
});

describe('launch fits', () => {
  const capacity = {
    vcpuQuotas: [
      {
        region: 'us-east-1',
        family: 'P' as const,
        market: 'on-demand' as const,
        limitVcpus: 64,
        usedVcpus: 40,
      },
      { region: 'us-east-1', family: 'P' as const, market: 'spot' as const, limitVcpus: 16, usedVcpus: 0 },
    ],
    reservedSlots: [
      { region: 'us-east-1', zone: 'us-east-1a', instanceType: P3, freeInstances: 1 },
      { region: 'us-east-1', zone: 'us-east-1b', instanceType: P3, freeInstances: 2 },
    ],
  };

  it('counts vCPUs from the catalog against the family quota of the market', () => {
    expect(launchFits(capacity, priceCatalog, launch(3, 'on-demand'))).toBe(true); // 40 + 24 = 64
    expect(launchFits(capacity, priceCatalog, launch(4, 'on-demand'))).toBe(false);
    expect(launchFits(capacity, priceCatalog, launch(2, 'spot'))).toBe(true);
    expect(launchFits(capacity, priceCatalog, launch(1, 'spot', 'p3.8xlarge'))).toBe(false); // 32 vCPUs
  });

  it('needs one zone with enough free reserved slots', () => {
    expect(launchFits(capacity, priceCatalog, launch(2, 'reserved'))).toBe(true);
    expect(launchFits(capacity, priceCatalog, launch(3, 'reserved'))).toBe(false);
    expect(launchFits(capacity, priceCatalog, launch(1, 'reserved', 'p3.8xlarge'))).toBe(false);
  });

  it('does not limit a family and region it knows no quota for', () => {
    expect(launchFits(capacity, priceCatalog, launch(100, 'on-demand', 'g5.xlarge'))).toBe(true);
  });

  it('reports the shortfall and gives capacity back on release', () => {
    const ledger = new CapacityLedger(capacity, priceCatalog);
    expect(ledger.take(launch(2, 'reserved'))).toBe('us-east-1b');
    expect(ledger.shortfall(launch(2, 'reserved'))).toBe('capacity');
    ledger.release(launch(2, 'reserved'), 'us-east-1b');
    expect(ledger.shortfall(launch(2, 'reserved'))).toBeNull();
    ledger.take(launch(3, 'on-demand'));
    expect(ledger.shortfall(launch(1, 'on-demand'))).toBe('account-quota');
    ledger.release(launch(1, 'on-demand'));
    expect(ledger.shortfall(launch(1, 'on-demand'))).toBeNull();
  });

  it('tells a launch larger than the whole quota from one that waits for releases', () => {
    const ledger = new CapacityLedger(pQuota(4, 4), priceCatalog);
    expect(ledger.couldEverFit(launch(4, 'on-demand'))).toBe(true);
    expect(ledger.couldEverFit(launch(5, 'on-demand'))).toBe(false);
  });

  it('refuses a type whose vCPUs the catalog does not know', () => {
    expect(() => launchFits(pQuota(4), priceCatalog, launch(1, 'on-demand', 'p9.mega'))).toThrow(
      UnknownVcpusError,
    );
  });
});

describe('reserved slots of commitments', () => {
  const held = { l1: { gpus: 4, startedAtMs: NOW, interruptible: false } };
  const commitment = (overrides: Partial<Commitment>) => committed({ holders: held, ...overrides });

  it('counts whole free instances of active commitments only', () => {
    expect(
      reservedSlotsOf(
        [
          commitment({}),
          commitment({ id: 'c2', holders: { l2: { gpus: 2, startedAtMs: NOW, interruptible: true } } }),
          commitment({ id: 'c3', startMs: NOW + 1 }),
        ],
        NOW,
      ),
    ).toEqual([
      { region: 'us-east-1', zone: 'us-east-1a', instanceType: 'p3.8xlarge', freeInstances: 2 },
      { region: 'us-east-1', zone: 'us-east-1a', instanceType: 'p3.8xlarge', freeInstances: 2 },
    ]);
  });
});
