import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../shared/catalog';
import { admissionPass } from '../../shared/domain/admission/admission-pass';
import { type AdmissionClaim, capacityOfPools } from '../../shared/domain/admission/claims';
import { DEFAULT_QUOTA, type Quota } from '../../shared/domain/admission/quota';
import { quotasOf, runAdmissionPass, usageOf } from '../../shared/usecases/admission/admission-pass';
import { localDynamoDb } from '../support/admission';
import { emulatorEndpoints } from '../support/emulators';

const NOW = Date.parse('2031-05-05T12:00:00Z');
const TENANTS = ['acme', 'globex', 'initech'];
/** p3.2xlarge: one GPU, 8 vCPUs, $3.06/h in us-east-1. */
const TYPE = 'p3.2xlarge';
const VCPUS = 8;
const HOURLY = priceCatalog.onDemandMicroPerHour(TYPE, 'us-east-1');
const DEFAULT: Quota = { ...DEFAULT_QUOTA, maxGpus: 4 };

type Step =
  | { kind: 'arrive'; tenant: number; gpus: number; priority: number }
  | { kind: 'release'; pick: number }
  | { kind: 'quota'; tenant: number; maxGpus: number; maxHourlyUsd: number }
  | { kind: 'pass'; racing: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('arrive' as const),
      tenant: fc.nat({ max: 2 }),
      gpus: fc.integer({ min: 1, max: 4 }),
      priority: fc.integer({ min: 0, max: 1000 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('quota' as const),
      tenant: fc.nat({ max: 2 }),
      maxGpus: fc.integer({ min: 0, max: 8 }),
      maxHourlyUsd: fc.integer({ min: 0, max: 30 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('pass' as const), racing: fc.integer({ min: 1, max: 3 }) }),
  },
);

const scenario = fc.record({
  fleetGpus: fc.integer({ min: 2, max: 12 }),
  steps: fc.array(step, { minLength: 1, maxLength: 10 }),
});

describe('admission store on DynamoDB Local, property', () => {
  const dynamo = localDynamoDb(emulatorEndpoints().dynamodb);

  it('racing passes never exceed a quota or the capacity, never admit twice, and admit whatever fits', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ fleetGpus, steps }) => {
        const store = await dynamo.freshAdmissionStore();
        await store.putPoolLimit({
          kind: 'vcpu',
          region: 'us-east-1',
          family: 'P',
          market: 'on-demand',
          limit: fleetGpus * VCPUS,
        });
        const deps = { admission: store, catalog: priceCatalog, defaultQuota: DEFAULT, now: () => NOW };
        const quotas: Record<string, Quota> = {};
        const holding = new Map<string, AdmissionClaim>();
        const everAdmitted = new Set<string>();
        let serial = 0;

        for (const s of steps) {
          if (s.kind === 'arrive') {
            serial += 1;
            await store.enqueue({
              leaseId: `lease-${String(serial).padStart(3, '0')}`,
              tenantId: TENANTS[s.tenant] as string,
              workload: 'training',
              gpus: s.gpus,
              candidates: [
                {
                  region: 'us-east-1',
                  instanceType: TYPE,
                  instances: s.gpus,
                  mode: 'on-demand',
                  hourlyMicroUsd: s.gpus * HOURLY,
                },
              ],
              priority: s.priority,
              queuedAtMs: NOW - serial,
              maxWaitMinutes: 60,
            });
          } else if (s.kind === 'release') {
            const ids = [...holding.keys()];
            if (ids.length === 0) continue;
            const id = ids[s.pick % ids.length] as string;
            const given = await store.release(id);
            expect(given?.leaseId).toBe(id);
            holding.delete(id);
            expect(await store.release(id)).toBeUndefined();
          } else if (s.kind === 'quota') {
            const tenantId = TENANTS[s.tenant] as string;
            quotas[tenantId] = {
              maxGpus: s.maxGpus,
              maxHourlyMicroUsd: s.maxHourlyUsd * 1_000_000,
              maxGpusByMode: {},
              weight: 1,
            };
            await store.putQuota(tenantId, quotas[tenantId]);
          } else {
            const runs = await Promise.all(Array.from({ length: s.racing }, () => runAdmissionPass(deps)));
            const admittedNow = runs.flatMap((run) => run.admitted);
            for (const claim of admittedNow) {
              expect(everAdmitted.has(claim.leaseId), `${claim.leaseId} admitted twice`).toBe(false);
              everAdmitted.add(claim.leaseId);
              holding.set(claim.leaseId, claim);
            }
            const after = await store.snapshot();
            for (const tenantId of new Set(admittedNow.map((claim) => claim.tenantId))) {
              const quota = quotas[tenantId] ?? DEFAULT;
              const usage = after.tenants[tenantId]?.usage;
              expect(usage?.gpus).toBeLessThanOrEqual(quota.maxGpus);
              expect(usage?.hourlyMicroUsd).toBeLessThanOrEqual(quota.maxHourlyMicroUsd);
            }
            // Nothing left waiting fits now: the pure pass over the stored state admits nobody.
            const again = admissionPass({
              nowMs: NOW,
              queue: after.queue,
              usage: usageOf(after),
              quotas: quotasOf(after),
              defaultQuota: DEFAULT,
              capacity: capacityOfPools(after.pools),
              catalog: priceCatalog,
            });
            expect(again.admitted.map(({ lease }) => lease.leaseId)).toEqual([]);
          }

          // Counters and capacity are exactly what the admitted, unreleased leases hold.
          const state = await store.snapshot();
          const held = [...holding.values()];
          for (const tenantId of TENANTS) {
            const mine = held.filter((claim) => claim.tenantId === tenantId);
            const usage = state.tenants[tenantId]?.usage;
            expect(usage?.gpus ?? 0).toBe(mine.reduce((sum, claim) => sum + claim.gpus, 0));
            expect(usage?.hourlyMicroUsd ?? 0).toBe(
              mine.reduce((sum, claim) => sum + claim.hourlyMicroUsd, 0),
            );
          }
          const pool = state.pools[0];
          expect(pool?.used).toBe(held.reduce((sum, claim) => sum + claim.gpus * VCPUS, 0));
          expect(pool?.used ?? 0).toBeLessThanOrEqual(fleetGpus * VCPUS);
          expect(state.queue.some((lease) => holding.has(lease.leaseId))).toBe(false);
        }
      }),
      { numRuns: 10 },
    );
    // A budget for a loaded machine: each run makes a table and ~30 requests; about 5 s on an idle one.
  }, 180_000);
});
