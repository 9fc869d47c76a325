import type { LeaseView } from '../../../shared/domain/lease';
import { type CreateLeaseRequest, createLease } from '../../../shared/usecases/create-lease';
import { provisionLease } from '../../../shared/usecases/provision-lease';
import type { FakeControlPlane } from './control-plane';

export const TENANT = 'tenant-a';
export const DEFAULT_TYPE = 'g5.xlarge';

/** A lease as the API creates it (PENDING, provisioning queued), through the real use case. */
export function requestLease(plane: FakeControlPlane, request: Partial<CreateLeaseRequest> = {}) {
  return createLease(plane, { tenantId: TENANT, workload: 'training', gpus: 1, ...request }, DEFAULT_TYPE);
}

/** A lease requested and provisioned by the real use cases; fails the test unless it ends RUNNING. */
export async function runningLease(
  plane: FakeControlPlane,
  request: Partial<CreateLeaseRequest> = {},
): Promise<LeaseView> {
  const lease = await requestLease(plane, request);
  const outcome = await provisionLease(plane, lease.tenantId, lease.leaseId);
  const view = plane.leases.peek(lease.tenantId, lease.leaseId);
  if (outcome !== 'running' || !view) throw new Error(`lease did not run: ${outcome}`);
  return view;
}
