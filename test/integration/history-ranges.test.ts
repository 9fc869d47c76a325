import { beforeAll, describe, expect, it } from 'vitest';
import type { Lease, LeaseInstance } from '../../shared/domain/lease';
import { type Harness, startHarness } from '../support/harness';
import { launchedInstance, storedLease } from '../support/leases';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOV = Date.parse('2026-11-01T00:00:00Z');
const TENANT = 'tenant-history';

let harness: Harness;
let ancient: Lease;
let longRunner: Lease;
let recent: Lease;

/** A released lease whose one instance ran from `fromMs` to `toMs`, metered up to `meteredUntilMs`. */
async function ranLease(createdAtMs: number, toMs: number, meteredUntilMs: number): Promise<Lease> {
  const lease = await storedLease(harness.stores.leases, {
    tenantId: TENANT,
    status: 'RELEASED',
    createdAtMs,
  });
  const instance: LeaseInstance = {
    ...launchedInstance(lease, `i-${lease.leaseId.slice(-10)}`, createdAtMs),
    endedAtMs: toMs,
    meteredUntilMs,
    meteringOpen: meteredUntilMs < toMs,
  };
  await harness.stores.leases.recordInstances([instance]);
  return lease;
}

beforeAll(async () => {
  harness = await startHarness();
  ancient = await ranLease(NOV - 300 * DAY, NOV - 299 * DAY, NOV - 299 * DAY); // billed long ago
  // Created in June, still running in November: metered up to October's end, then daily.
  longRunner = await ranLease(NOV - 150 * DAY, NOV + 4 * DAY, NOV);
  recent = await ranLease(NOV + 5 * DAY, NOV + 6 * DAY, NOV + 5 * DAY);
  for (let at = NOV + DAY; at <= NOV + 7 * DAY; at += DAY) await harness.tick(at);
}, 120_000);

describe('history reads bounded by a range (DynamoDB Local, the real handler)', () => {
  it('reads leases created in a range with one key range, their instances with them', async () => {
    const found = await harness.stores.leases.listCreatedBetween(TENANT, NOV, NOV + 30 * DAY);
    expect(found.map((l) => l.leaseId)).toEqual([recent.leaseId]);
    expect(found[0]?.instances.map((i) => i.instanceId)).toEqual([`i-${recent.leaseId.slice(-10)}`]);
  });

  it("exports the range's leases: one created months before that ran in it, none that ended before it", async () => {
    const response = await harness.call(TENANT, 'GET /v1/usage/export', {
      query: { from: '2026-11-01', to: '2026-12-01' },
    });
    expect(response.status).toBe(200);
    const ids = String(response.body)
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(ids).toEqual([recent.leaseId, longRunner.leaseId]);
    expect(ids).not.toContain(ancient.leaseId);
  });

  it('profiles the GPU-hours of a lease created before the range on the days it ran', async () => {
    const { status, body } = await harness.call(TENANT, 'GET /v1/profile', {
      query: { from: '2026-11-03', to: '2026-11-04' },
    });
    expect(status).toBe(200);
    expect(body.days).toHaveLength(1);
    expect(body.days[0].gpuHours).toBe(24);
  });

  it.each([['GET /v1/profile'], ['GET /v1/usage/export']])(
    '%s refuses a range past 93 days with a 400 naming to, and takes 93 days',
    async (route) => {
      const tooLong = await harness.call(TENANT, route, { query: { from: '2026-08-01', to: '2026-11-03' } });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.error.code).toBe('VALIDATION_FAILED');
      expect(tooLong.body.error.details).toEqual([
        {
          path: 'to',
          message: expect.stringContaining('at most 93 days: set from and to at most 93 days apart'),
        },
      ]);
      const longest = await harness.call(TENANT, route, { query: { from: '2026-08-01', to: '2026-11-02' } });
      expect(longest.status).toBe(200);
    },
  );
});
