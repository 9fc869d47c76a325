import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SpotTraceFiles } from '../../../shared/adapters/spot-trace-files';
import {
  ANNOUNCE_GRACE_MS,
  type AuditAnnounceDeps,
  announceMonthlyAudits,
} from '../../../shared/usecases/audit/announce-audits';
import { buildAudit } from '../../../shared/usecases/audit/build-audit';
import { meterOpenInstances } from '../../../shared/usecases/metering';
import { completeRelease, requestRelease } from '../../../shared/usecases/release-lease';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { runningLease, TENANT } from '../../support/fakes/leases';

const HOUR = 3_600_000;
const G5_EAST = 1_006_000;
/** Ten hours of a 200 GiB root volume at $0.08/GB-month: 200 × 36,000 × 80,000 ÷ 2,592,000 µ$. */
const EAST_VOLUME_10H = 222_222;
const DEC_1 = Date.parse('2026-12-01T00:30:00Z');
// Made-up V100 traces (one zone, always capacity at $1.00/h): files, not AWS, so they load in the unit suite.
const spotTraces = new SpotTraceFiles(
  fileURLToPath(new URL('../../fixtures/audit/spot-data', import.meta.url)),
);

const auditDeps = (plane: FakeControlPlane): AuditAnnounceDeps => ({
  ...plane,
  metrics: plane.metricReader,
  spotTraces,
  tenants: plane.spend,
  notifier: plane.auditNotifier,
});

/** A training lease that ran ten hours of November, metered and released. */
async function tenHoursInNovember(plane: FakeControlPlane) {
  const lease = await runningLease(plane);
  await meterOpenInstances(plane, plane.clock.advance(5 * HOUR));
  plane.clock.advance(5 * HOUR);
  await requestRelease(plane, TENANT, lease.leaseId);
  await completeRelease(plane, TENANT, lease.leaseId);
  plane.clock.set(DEC_1);
  return lease;
}

describe('the monthly audit', () => {
  it("is built from the month's rollups and leases", async () => {
    const plane = fakeControlPlane();
    await tenHoursInNovember(plane);

    const audit = await buildAudit(auditDeps(plane), TENANT, '2026-11', DEC_1);

    expect(audit).toMatchObject({
      tenantId: TENANT,
      month: '2026-11',
      complete: true,
      costMicroUsd: 10 * G5_EAST + EAST_VOLUME_10H,
      byDimension: { compute: 10 * G5_EAST, storage: EAST_VOLUME_10H, transfer: 0 },
    });
    expect(audit.byMode.map((m) => [m.mode, m.seconds, m.costMicroUsd])).toEqual([
      ['on-demand', 36_000, 10 * G5_EAST + EAST_VOLUME_10H],
      ['reserved', 0, 0],
      ['spot', 0, 0],
    ]);
    expect(audit.recommendation).not.toBeNull();
  });

  it('is stored and announced once per tenant and month however often the schedule runs', async () => {
    const plane = fakeControlPlane();
    await tenHoursInNovember(plane);
    const deps = auditDeps(plane);

    expect(await announceMonthlyAudits(deps, '2026-11', DEC_1)).toEqual({
      month: '2026-11',
      tenants: 1,
      stored: 1,
      announced: 1,
    });
    expect(await announceMonthlyAudits(deps, '2026-11', DEC_1)).toMatchObject({ stored: 0, announced: 0 });

    expect(plane.auditNotifier.messages).toHaveLength(1);
    expect(plane.events.ofType('AuditReady').map((e) => e.detail.costMicroUsd)).toEqual([
      10 * G5_EAST + EAST_VOLUME_10H,
    ]);
    expect((await plane.audits.get(TENANT, '2026-11'))?.announcedAtMs).toBe(DEC_1);
  });

  it('an announcement cut short is taken over after the grace and sent with the same audit id', async () => {
    const plane = fakeControlPlane();
    await tenHoursInNovember(plane);
    const deps = auditDeps(plane);
    plane.events.faults.failNext('publish', new Error('EventBridge down'));
    await expect(announceMonthlyAudits(deps, '2026-11', DEC_1)).rejects.toThrow('EventBridge down');

    plane.clock.advance(ANNOUNCE_GRACE_MS);
    expect((await announceMonthlyAudits(deps, '2026-11', DEC_1)).announced).toBe(0);
    plane.clock.advance(1);
    expect((await announceMonthlyAudits(deps, '2026-11', DEC_1)).announced).toBe(1);

    const ids = plane.auditNotifier.messages.map((m) => m.attributes.auditId);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
    expect(plane.events.ofType('AuditReady').map((e) => e.detail.auditId)).toEqual([ids[0]]);
  });

  it('tenants charged nothing in the month get no audit', async () => {
    const plane = fakeControlPlane();
    await tenHoursInNovember(plane);
    expect(await announceMonthlyAudits(auditDeps(plane), '2026-10', DEC_1)).toMatchObject({
      tenants: 0,
      stored: 0,
    });
  });
});
