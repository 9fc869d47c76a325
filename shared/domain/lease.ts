/** Vocabulary shared by the API, the workers, the planner and the simulator. */
export const WORKLOADS = ['training', 'inference', 'batch'] as const;
export type Workload = (typeof WORKLOADS)[number];

export const RENTAL_MODES = ['on-demand', 'reserved', 'spot'] as const;
export type RentalMode = (typeof RENTAL_MODES)[number];

/**
 * PENDING: stored, waiting for the provisioner. RUNNING: instances launched and owned.
 * RELEASING: the tenant asked to stop; billing ends at `releaseRequestedAt`.
 * RELEASED: every instance terminated and billed. FAILED: nothing could be launched.
 */
export const LEASE_STATUSES = ['PENDING', 'RUNNING', 'RELEASING', 'RELEASED', 'FAILED'] as const;
export type LeaseStatus = (typeof LEASE_STATUSES)[number];

export function isTerminal(status: LeaseStatus): boolean {
  return status === 'RELEASED' || status === 'FAILED';
}
