import type { LeaseStatus, LeaseView } from '../../../shared/domain/lease';
import type { CreateLeaseRequest } from '../../../shared/usecases/create-lease';
import type { ControlPlane } from '../../../shared/usecases/dependencies';

export type ApiDeps = Pick<
  ControlPlane,
  | 'leases'
  | 'ledger'
  | 'commands'
  | 'events'
  | 'catalog'
  | 'region'
  | 'now'
  | 'compute'
  | 'placement'
  | 'commitments'
  | 'images'
>;

/** What the routes are given by the API's composition root. */
export interface ApiContext {
  readonly deps: ApiDeps;
  /** createLease behind the Idempotency-Key: a retry gets the first answer back. */
  readonly createLeaseOnce: (input: {
    tenantId: string;
    idempotencyKey: string;
    request: CreateLeaseRequest;
  }) => Promise<{ leaseId: string; status: LeaseStatus }>;
  readonly releaseLease: (tenantId: string, leaseId: string) => Promise<LeaseView>;
}
