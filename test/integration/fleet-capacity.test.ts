import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../shared/catalog';
import type { WaitingLease } from '../../shared/domain/admission/admission-pass';
import { DEFAULT_QUOTA } from '../../shared/domain/admission/quota';
import type { RentalMode } from '../../shared/domain/lease';
import type { ComputeInstance } from '../../shared/ports/compute';
import { runAdmissionPass } from '../../shared/usecases/admission/admission-pass';
import { refreshFleetCapacity } from '../../shared/usecases/admission/fleet-capacity';
import { localDynamoDb } from '../support/admission';
import { emulatorEndpoints } from '../support/emulators';
import { FakeAccountQuotas } from '../support/fakes/account-quotas';
import { FakeCommitmentRepository } from '../support/fakes/commitments';

// #19's fleet capacity on DynamoDB Local: the pools' limits refreshed from a
// fake quota source (moto serves no EC2 quotas) into the real admission
// store, and the real pass charging leases against them.
const NOW = Date.parse('2031-06-01T12:00:00Z');
/** p3.2xlarge: one GPU, 8 vCPUs. */
const TYPE = 'p3.2xlarge';
const P_ON_DEMAND = { region: 'us-east-1', family: 'P', market: 'on-demand' } as const;

let serial = 0;
function lease(mode: RentalMode = 'on-demand'): WaitingLease {
  serial += 1;
  return {
    leaseId: `fleet-${serial}`,
    tenantId: 'acme',
    workload: 'training',
    gpus: 1,
    candidates: [
      {
        region: 'us-east-1',
        instanceType: TYPE,
        instances: 1,
        mode,
        hourlyMicroUsd: priceCatalog.onDemandMicroPerHour(TYPE, 'us-east-1'),
      },
    ],
    priority: 500,
    queuedAtMs: NOW + serial,
    maxWaitMinutes: 60,
  };
}

/** A warm machine booting: running, managed, no lease. */
const warmMachine: ComputeInstance = {
  instanceId: 'i-warm',
  region: 'us-east-1',
  zone: 'us-east-1a',
  instanceType: TYPE,
  launchedAtMs: NOW,
  mode: 'on-demand',
  state: 'running',
  warmPool: 'p3-warm',
};

describe('fleet capacity refreshed into the admission store on DynamoDB Local', () => {
  const dynamo = localDynamoDb(emulatorEndpoints().dynamodb);

  it('admits the lease that fits, queues the next for the account quota, and admits it at a release', async () => {
    const admission = await dynamo.freshAdmissionStore();
    const accountQuotas = new FakeAccountQuotas().set(P_ON_DEMAND, 16);
    const commitments = new FakeCommitmentRepository();
    const refresh = () =>
      refreshFleetCapacity({
        admission,
        accountQuotas,
        quotaOverrides: [],
        commitments,
        compute: { managedInstances: async () => [warmMachine] },
        catalog: priceCatalog,
        regions: ['us-east-1'],
        now: () => NOW,
      });
    const pass = () =>
      runAdmissionPass({ admission, catalog: priceCatalog, defaultQuota: DEFAULT_QUOTA, now: () => NOW });

    // 16 vCPUs, 8 of them taken by the warm machine outside admission: room for one p3.2xlarge.
    expect((await refresh()).written).toEqual([{ kind: 'vcpu', ...P_ON_DEMAND, limit: 8 }]);
    const fits = lease();
    const over = lease();
    await admission.enqueue(fits);
    await admission.enqueue(over);

    const first = await pass();
    expect(first.admitted.map((claim) => claim.leaseId)).toEqual([fits.leaseId]);
    expect(first.queued.map(({ lease, reason }) => [lease.leaseId, reason])).toEqual([
      [over.leaseId, 'account-quota'],
    ]);
    expect(await admission.status(over.leaseId)).toBe('QUEUED');

    // A refresh while it runs changes nothing: the admitted lease is in `used`, not subtracted again.
    expect((await refresh()).written).toEqual([]);
    expect(await admission.pools()).toEqual([{ kind: 'vcpu', ...P_ON_DEMAND, limit: 8, used: 8 }]);

    await admission.release(fits.leaseId);
    const second = await pass();
    expect(second.admitted.map((claim) => claim.leaseId)).toEqual([over.leaseId]);
    expect(await admission.status(over.leaseId)).toBe('ADMITTED');
  });

  it('keeps the stored limit while Service Quotas is unreachable', async () => {
    const admission = await dynamo.freshAdmissionStore();
    const accountQuotas = new FakeAccountQuotas().set(P_ON_DEMAND, 16);
    const deps = {
      admission,
      accountQuotas,
      quotaOverrides: [],
      commitments: new FakeCommitmentRepository(),
      compute: { managedInstances: async () => [] },
      catalog: priceCatalog,
      regions: ['us-east-1'],
      now: () => NOW,
    };
    await refreshFleetCapacity(deps);
    accountQuotas.down = 'unreachable';
    const refresh = await refreshFleetCapacity(deps);
    expect(refresh.unavailable.map((error) => error.reason)).toEqual(Array(4).fill('unreachable'));
    expect(await admission.pools()).toEqual([{ kind: 'vcpu', ...P_ON_DEMAND, limit: 16, used: 0 }]);
  });

  it("gives reserved launches the commitments' slots, and queues the one past them for capacity", async () => {
    const admission = await dynamo.freshAdmissionStore();
    const commitments = new FakeCommitmentRepository();
    await commitments.put({
      id: 'c1',
      instanceType: TYPE,
      region: 'us-east-1',
      zone: 'us-east-1a',
      count: 1,
      gpusPerInstance: 1,
      hourlyMicroUsd: 1_900_000,
      startMs: NOW - 86_400_000,
      endMs: NOW + 86_400_000,
    });
    await refreshFleetCapacity({
      admission,
      accountQuotas: new FakeAccountQuotas(),
      quotaOverrides: [],
      commitments,
      compute: { managedInstances: async () => [] },
      catalog: priceCatalog,
      regions: ['us-east-1'],
      now: () => NOW,
    });
    const reserved = lease('reserved');
    const past = lease('reserved');
    await admission.enqueue(reserved);
    await admission.enqueue(past);
    const run = await runAdmissionPass({
      admission,
      catalog: priceCatalog,
      defaultQuota: DEFAULT_QUOTA,
      now: () => NOW,
    });
    expect(run.admitted.map((claim) => [claim.leaseId, claim.zone])).toEqual([
      [reserved.leaseId, 'us-east-1a'],
    ]);
    expect(run.queued.map(({ lease, reason }) => [lease.leaseId, reason])).toEqual([
      [past.leaseId, 'capacity'],
    ]);
  });
});
