import { describe, expect, it } from 'vitest';
import {
  closeInstanceBill,
  meterDeferred,
  meterInstances,
  meterOpenInstances,
} from '../../../shared/usecases/metering';
import { recordIdleReserved } from '../../../shared/usecases/reserved-slots';
import { fakeControlPlane } from '../../support/fakes/control-plane';
import { CrashError } from '../../support/fakes/faults';
import { runningLease, TENANT } from '../../support/fakes/leases';

const HOUR = 3_600_000;
const G5_EAST = 1_006_000;
/** The hour's storage of its 200 GiB root volume at $0.08/GB-month: 200 × 3600 × 80,000 ÷ 2,592,000 µ$. */
const EAST_VOLUME_HOUR = 22_222;
const G5_EAST_BILL = G5_EAST + EAST_VOLUME_HOUR;
const tenantMonth = { tenantId: TENANT, month: '2026-11', scope: { kind: 'tenant' } } as const;

describe('a metering tick', () => {
  it('charges every open instance up to the tick and counts the spend and the fleet', async () => {
    const plane = fakeControlPlane();
    await runningLease(plane, { project: 'vision' });
    await runningLease(plane, { workload: 'batch' });
    const atMs = plane.clock.advance(HOUR);

    const summary = await meterOpenInstances(plane, atMs);

    expect(summary).toMatchObject({ instances: 2, charged: 2, deferred: 0, runningLeases: 2 });
    const spot = plane.leases.openInstances().then((all) => all.find((i) => i.mode === 'spot'));
    const spotHourly = (await spot)?.priceMicroUsdPerHour ?? 0;
    expect(summary.microUsd).toBe(G5_EAST_BILL + spotHourly + EAST_VOLUME_HOUR);
    expect(
      await plane.spend.spendOf([
        tenantMonth,
        { ...tenantMonth, scope: { kind: 'project', project: 'vision' } },
      ]),
    ).toEqual([G5_EAST_BILL + spotHourly + EAST_VOLUME_HOUR, G5_EAST_BILL]);
    expect([...summary.fleet].sort((a, b) => a.mode.localeCompare(b.mode))).toEqual([
      { mode: 'on-demand', region: 'us-east-1', instances: 1, gpus: 1 },
      { mode: 'spot', region: 'us-east-1', instances: 1, gpus: 1 },
    ]);
  });

  it('a repeated tick at the same instant charges nothing twice', async () => {
    const plane = fakeControlPlane();
    await runningLease(plane);
    const atMs = plane.clock.advance(HOUR);
    await meterOpenInstances(plane, atMs);

    const again = await meterOpenInstances(plane, atMs);

    expect(again.charged).toBe(0);
    expect(await plane.spend.spendOf([tenantMonth])).toEqual([G5_EAST_BILL]);
  });

  it('a tick whose invocation died after the ledger wrote is not billed again by its redelivery', async () => {
    const plane = fakeControlPlane();
    await runningLease(plane);
    const atMs = plane.clock.advance(HOUR);
    plane.ledger.faults.crashAfterNext('applyCharges');
    await expect(meterOpenInstances(plane, atMs)).rejects.toBeInstanceOf(CrashError);

    await meterOpenInstances(plane, atMs);

    expect(await plane.spend.spendOf([tenantMonth])).toEqual([G5_EAST_BILL]);
    expect(plane.ledger.usage).toHaveLength(1);
  });

  it('hands the instances it has no time for to the overflow queue, which charges them to the same instant', async () => {
    const plane = fakeControlPlane();
    await runningLease(plane);
    const atMs = plane.clock.advance(HOUR);
    const deferred: { atMs: number; refs: unknown[] }[] = [];

    const summary = await meterOpenInstances(plane, atMs, {
      remainingMs: () => 1_000,
      overflow: { defer: async (at, refs) => void deferred.push({ atMs: at, refs: [...refs] }) },
    });

    expect(summary).toMatchObject({ charged: 0, deferred: 1 });
    const [work] = deferred;
    expect(work?.atMs).toBe(atMs);
    plane.clock.advance(60_000);
    const rest = await meterDeferred(plane, work?.atMs ?? 0, work?.refs as never);
    expect(rest).toMatchObject({ charged: 1, microUsd: G5_EAST_BILL });
  });
});

describe('racing writers', () => {
  it('a tick computed from checkpoints another tick moved first bills nothing', async () => {
    const plane = fakeControlPlane();
    await runningLease(plane);
    const atMs = plane.clock.advance(HOUR);
    const stale = await plane.leases.openInstances();
    await meterOpenInstances(plane, atMs);

    const late = await meterInstances(plane, stale, atMs, {});

    expect(late).toMatchObject({ instances: 1, charged: 0, microUsd: 0 });
    expect(await plane.spend.spendOf([tenantMonth])).toEqual([G5_EAST_BILL]);
  });

  it('closing a bill read before a tick moved it recomputes from the new checkpoint', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    const [stale] = await plane.leases.openInstances();
    await meterOpenInstances(plane, plane.clock.advance(HOUR / 2));
    const endedAtMs = plane.clock.advance(HOUR / 2);
    if (!stale) throw new Error('no open instance');

    await closeInstanceBill(
      plane,
      stale,
      endedAtMs,
      async () => (await plane.leases.get(TENANT, lease.leaseId))?.instances[0],
    );

    expect(plane.leases.peek(TENANT, lease.leaseId)?.instances[0]).toMatchObject({
      meteringOpen: false,
      billedSeconds: 3600,
      billedMicroUsd: G5_EAST,
    });
    expect(await plane.spend.spendOf([tenantMonth])).toEqual([G5_EAST_BILL]);
  });
});

describe('idle reserved time', () => {
  it('is recorded once per window, in the month of its end', async () => {
    const plane = fakeControlPlane();
    await plane.commitments.put({
      id: 'c1',
      instanceType: 'g5.xlarge',
      region: 'us-east-1',
      zone: 'us-east-1a',
      count: 2,
      gpusPerInstance: 1,
      hourlyMicroUsd: 600_000,
      startMs: plane.now(),
      endMs: plane.now() + 365 * 24 * HOUR,
    });
    const atMs = plane.clock.advance(HOUR);

    expect(await recordIdleReserved(plane, atMs)).toEqual({
      commitments: 1,
      idleGpuSeconds: 7200,
      idleMicroUsd: 1_200_000,
    });
    expect(await recordIdleReserved(plane, atMs)).toEqual({
      commitments: 1,
      idleGpuSeconds: 0,
      idleMicroUsd: 0,
    });
    expect((await plane.commitments.idleInMonth('2026-11')).map((m) => m.idleGpuSeconds)).toEqual([7200]);
  });
});
