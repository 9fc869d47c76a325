import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { priceCatalog } from '../../shared/catalog';
import { costOfRun } from '../../shared/domain/billing';
import type { LeaseInstance } from '../../shared/domain/lease';
import { monthOf } from '../../shared/domain/spend';
import { closeInstanceBill, meterInstances, meterOpenInstances } from '../../shared/usecases/metering';
import { awsProbe } from '../support/aws';
import { storesOf, useFreshResources } from '../support/function-env';
import { usageCharges } from '../support/usage-records';

let env: Record<string, string>;
let stores: Awaited<ReturnType<typeof storesOf>> & { catalog: typeof priceCatalog };

beforeAll(async () => {
  env = await useFreshResources();
  stores = { ...(await storesOf(env)), catalog: priceCatalog };
});

/** Ten minutes before midnight at a month's end: runs cross a day and a month. */
const T0 = Date.parse('2026-11-30T23:50:00Z');
const MINUTE = 60_000;

const instanceArb = fc.record({
  tenant: fc.integer({ min: 0, max: 3 }),
  startMs: fc.integer({ min: 0, max: 3 * MINUTE }),
  lifetimeMs: fc.integer({ min: 1, max: 9 * MINUTE }),
  priceMicroUsdPerHour: fc.integer({ min: 1, max: 40_000_000 }),
  mode: fc.constantFrom('on-demand' as const, 'spot' as const, 'reserved' as const),
  project: fc.option(fc.constantFrom('vision', 'nlp'), { nil: undefined }),
});
/** What happens to each minute's tick: lost, run, run twice at once, run late (after the next one). */
const tickFate = fc.constantFrom('lost', 'once', 'racing', 'late', 'stale');

let run = 0;

describe('the batched meter, property', () => {
  it('bills every instance exactly its closed-form cost, and counts every micro-dollar once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(instanceArb, { minLength: 1, maxLength: 12 }),
        fc.array(tickFate, { minLength: 12, maxLength: 12 }),
        async (specs, fates) => {
          run += 1;
          const instances: LeaseInstance[] = specs.map((spec, i) => ({
            tenantId: `prop${run}-t${spec.tenant}`,
            leaseId: `lease-${run}-${i % 5}`,
            instanceId: `i-${run}-${i}`,
            instanceType: i % 2 === 0 ? 'g5.xlarge' : 'p5.4xlarge',
            mode: spec.mode,
            project: spec.project,
            zone: 'us-east-1a',
            priceMicroUsdPerHour: spec.priceMicroUsdPerHour,
            launchedAtMs: T0 + spec.startMs,
            meteredUntilMs: T0 + spec.startMs,
            billedSeconds: 0,
            billedMicroUsd: 0,
            meteringOpen: true,
          }));
          const endOf = (instance: LeaseInstance, i: number) =>
            instance.launchedAtMs + (specs[i]?.lifetimeMs ?? 0);
          await stores.leases.recordInstances(instances);

          let late: number | undefined;
          for (let minute = 1; minute <= fates.length; minute += 1) {
            const atMs = T0 + minute * MINUTE;
            // An instance that ended since the last tick is released: its end is stamped (ticks stop
            // there), and for every other one the release also gets to close the bill before the tick.
            const open = await stores.leases.openInstances();
            await Promise.all(
              instances.map(async (instance, i) => {
                const current = open.find((o) => o.instanceId === instance.instanceId);
                if (!current || endOf(instance, i) > atMs) return;
                await stores.leases.stampInstanceEnds([instance], endOf(instance, i));
                if (i % 2 === 1) return;
                await closeInstanceBill(stores, current, endOf(instance, i), async () =>
                  (await stores.leases.instancesByRef([instance])).find((o) => o.meteringOpen),
                );
              }),
            );
            const fate = fates[minute - 1];
            if (fate === 'once') await meterOpenInstances(stores, atMs);
            if (fate === 'racing')
              await Promise.all([meterOpenInstances(stores, atMs), meterOpenInstances(stores, atMs)]);
            if (fate === 'stale') {
              // A run that read its work list before another run charged: every batch of it fails a condition.
              const snapshot = await stores.leases.openInstances();
              await meterOpenInstances(stores, atMs);
              await meterInstances(stores, snapshot, atMs, {});
            }
            if (late !== undefined) await meterOpenInstances(stores, late);
            late = fate === 'late' ? atMs : undefined;
          }
          // Whatever is still open ends now.
          const stillOpen = await stores.leases.openInstances();
          for (const current of stillOpen.filter((o) =>
            instances.some((i) => i.instanceId === o.instanceId),
          )) {
            const i = instances.findIndex((x) => x.instanceId === current.instanceId);
            await closeInstanceBill(stores, current, endOf(current, i), async () =>
              (await stores.leases.instancesByRef([current])).find((o) => o.meteringOpen),
            );
          }

          const rows = (await usageCharges(env.USAGE_TABLE_NAME ?? '')).filter((r) =>
            String(r.tenantId).startsWith(`prop${run}-`),
          );
          // A usage record is one transaction's: one tenant's charges, each instance at most once.
          const records = (await awsProbe().scan(env.USAGE_TABLE_NAME ?? '')).filter((r) =>
            String(r.tenantId).startsWith(`prop${run}-`),
          );
          for (const record of records) {
            const charged = (record.charges as { instanceId: string }[]).map((c) => c.instanceId);
            expect(new Set(charged).size).toBe(charged.length);
            expect(
              charged.every((id) => instances.find((x) => x.instanceId === id)?.tenantId === record.tenantId),
            ).toBe(true);
          }
          let expectedTotal = 0;
          instances.forEach((instance, i) => {
            const billed = rows
              .filter((r) => r.instanceId === instance.instanceId)
              .reduce((sum, r) => sum + Number(r.microUsd), 0);
            const expected = costOfRun(instance, endOf(instance, i));
            expect(billed).toBe(expected);
            expectedTotal += expected;
          });
          const aggregates = (await awsProbe().scan(env.SPEND_TABLE_NAME ?? '')).filter((a) =>
            String(a.tenantId).startsWith(`prop${run}-`),
          );
          const sumOf = (prefix: string) =>
            aggregates
              .filter((a) => String(a.sk).startsWith(prefix))
              .reduce((sum, a) => sum + Number(a.microUsd), 0);
          const tenantMonths = aggregates.filter((a) => /^MONTH#.*#TENANT$/.test(String(a.sk)));
          expect(tenantMonths.reduce((sum, a) => sum + Number(a.microUsd), 0)).toBe(expectedTotal);
          expect(sumOf('DAY#')).toBe(expectedTotal);
          expect(sumOf('LEASEDAY#')).toBe(expectedTotal);
          expect(
            aggregates.filter((a) => /#MODE#/.test(String(a.sk))).reduce((s, a) => s + Number(a.microUsd), 0),
          ).toBe(expectedTotal);
          // A charge up to midnight belongs to November; after it, to December.
          expect(tenantMonths.every((a) => ['2026-11', '2026-12'].includes(String(a.month)))).toBe(true);
          expect(monthOf(T0)).toBe('2026-11');
        },
      ),
      { numRuns: 10 },
    );
  }, 240_000);
});
