import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costOfRun } from '../../../shared/domain/billing';
import { DEFAULT_PLACEMENT_COSTS, transferMicroUsd } from '../../../shared/domain/placement-costs';
import type { BillingDimension } from '../../../shared/domain/spend';
import { costOfStorage } from '../../../shared/domain/storage-billing';
import { meterOpenInstances } from '../../../shared/usecases/metering';
import { completeRelease, requestRelease } from '../../../shared/usecases/release-lease';
import { fakeControlPlane } from '../../support/fakes/control-plane';
import { runningLease, TENANT } from '../../support/fakes/leases';

const MINUTE = 60_000;
const tenantMonth = { tenantId: TENANT, month: '2026-11', scope: { kind: 'tenant' } } as const;

/** Money the usage records hold, per dimension. */
function usageByDimension(plane: ReturnType<typeof fakeControlPlane>): Record<BillingDimension, number> {
  const sums: Record<BillingDimension, number> = { compute: 0, storage: 0, transfer: 0 };
  for (const record of plane.ledger.usage)
    for (const charge of record.charges) sums[charge.dimension ?? 'compute'] += charge.microUsd;
  return sums;
}

describe('every dimension billed, by hand', () => {
  it('charges a lease away from its data its transfer once, and its volume per second with no minimum', async () => {
    const plane = fakeControlPlane();
    // Data in eu-west-1, no fleet there: the lease runs in us-east-1 and moves 50 GB at $0.02/GB.
    const lease = await runningLease(plane, { dataRegion: 'eu-west-1', dataGb: 50 });
    await meterOpenInstances(plane, plane.clock.advance(30 * MINUTE));
    await meterOpenInstances(plane, plane.clock.advance(30 * MINUTE));
    plane.clock.advance(90_500);
    await requestRelease(plane, TENANT, lease.leaseId);
    await completeRelease(plane, TENANT, lease.leaseId);

    // 3690.5 s: compute 3691 s at $1.006/h = 1,031,429.4 µ$; storage 200 GiB × 3691 s at
    // $0.08/GB-month = 200 × 3691 × 80,000 ÷ 2,592,000 = 22,783.95 µ$; transfer 50 × 20,000 µ$.
    expect(usageByDimension(plane)).toEqual({ compute: 1_031_429, storage: 22_784, transfer: 1_000_000 });
    expect(await plane.spend.spendOf([tenantMonth])).toEqual([1_031_429 + 22_784 + 1_000_000]);
    expect(plane.events.ofType('LeaseReleased')[0]?.detail.totalMicroUsd).toBe(2_054_213);
  });

  it('bills a run ended inside its first minute 60 s of compute but only its seconds of storage', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    plane.clock.advance(20_000);
    await requestRelease(plane, TENANT, lease.leaseId);
    await completeRelease(plane, TENANT, lease.leaseId);

    // Compute: 60 s at $1.006/h = 16,766.7 µ$; storage: 200 × 20 × 80,000 ÷ 2,592,000 = 123.5 µ$, half up.
    expect(usageByDimension(plane)).toEqual({ compute: 16_767, storage: 123, transfer: 0 });
  });
});

describe('compute + storage + transfer of random leases', () => {
  it('equals the sum of the parts, each to its closed form, however the ticks fall', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 20 * MINUTE }), { maxLength: 8 }),
        fc.integer({ min: 1, max: 5 * 3_600_000 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.boolean(),
        async (gaps, runMs, dataGb, repeatTicks) => {
          const plane = fakeControlPlane();
          const lease = await runningLease(plane, { dataRegion: 'eu-west-1', dataGb });
          const [instance] = lease.instances;
          if (!instance) throw new Error('no instance');
          const endMs = instance.launchedAtMs + runMs;
          let atMs = instance.launchedAtMs;
          for (const gap of gaps) {
            atMs += gap;
            if (atMs >= endMs) break;
            plane.clock.set(atMs);
            await meterOpenInstances(plane, atMs);
            if (repeatTicks) await meterOpenInstances(plane, atMs);
          }
          plane.clock.set(endMs);
          await requestRelease(plane, TENANT, lease.leaseId);
          await completeRelease(plane, TENANT, lease.leaseId);
          // A tick after the end, redelivered: nothing more.
          await meterOpenInstances(plane, endMs + MINUTE);

          const parts = usageByDimension(plane);
          const volume = {
            launchedAtMs: instance.launchedAtMs,
            volumeGb: instance.volumeGb ?? 0,
            storageMicroUsdPerGbMonth: instance.storageMicroUsdPerGbMonth ?? 0,
          };
          expect(parts.compute).toBe(costOfRun(instance, endMs));
          expect(parts.storage).toBe(costOfStorage(volume, endMs));
          expect(parts.transfer).toBe(
            transferMicroUsd(DEFAULT_PLACEMENT_COSTS, 'eu-west-1', instance.region ?? '', dataGb),
          );
          expect(await plane.spend.spendOf([tenantMonth])).toEqual([
            parts.compute + parts.storage + parts.transfer,
          ]);
        },
      ),
      { numRuns: 40 },
    );
  });
});
