import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { lambdaContext } from '../../local/runtime/lambda-context';
import type { Lease } from '../../shared/domain/lease';
import { chooseRentalMode } from '../../shared/domain/rental-mode';
import { LEASE_TAG } from '../../shared/ports/compute';
import type { LeaseRepository } from '../../shared/ports/lease-repository';
import { awsProbe } from '../support/aws';
import { storesOf, useFreshResources } from '../support/function-env';
import { commandRecord, storedLease } from '../support/leases';

// The module the planner's replay also calls (see test/unit/planner/uses-domain-policies.test.ts):
// swapping it here must change what the lease worker launches, with nothing else touched.
vi.mock('../../shared/domain/rental-mode', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../shared/domain/rental-mode')>();
  return { ...actual, chooseRentalMode: vi.fn(actual.chooseRentalMode) };
});

let handler: typeof import('../../functions/lease-worker/handler').handler;
let leases: LeaseRepository;

beforeAll(async () => {
  const env = await useFreshResources();
  ({ handler } = await import('../../functions/lease-worker/handler'));
  ({ leases } = await storesOf(env));
});

afterEach(() => vi.mocked(chooseRentalMode).mockReset());

async function provisionNew(workload: Lease['workload']) {
  const lease = await storedLease(leases, { tenantId: 'tenant-p', workload });
  await handler({ Records: [commandRecord('provision', lease)] }, lambdaContext('lease-worker', 60_000));
  const [instance] = await awsProbe().instancesTagged(LEASE_TAG, lease.leaseId);
  return {
    lifecycle: instance?.InstanceLifecycle ?? 'on-demand',
    recorded: (await leases.get(lease.tenantId, lease.leaseId))?.instances[0]?.mode,
  };
}

describe('the lease worker decides modes with the same chooseRentalMode as the planner', () => {
  it('asks it for every lease, with the lease and the free reserved GPUs', async () => {
    await provisionNew('training');
    expect(chooseRentalMode).toHaveBeenCalledWith({
      workload: 'training',
      gpus: 1,
      requestedMode: undefined,
      freeReservedGpus: 0,
    });
  });

  it('launches what a changed policy says', async () => {
    expect(await provisionNew('training')).toEqual({ lifecycle: 'on-demand', recorded: 'on-demand' });
    vi.mocked(chooseRentalMode).mockImplementation(() => ({
      mode: 'spot',
      fallback: 'on-demand',
      reason: 'test: everything on spot',
    }));
    expect(await provisionNew('training')).toEqual({ lifecycle: 'spot', recorded: 'spot' });
  });
});
