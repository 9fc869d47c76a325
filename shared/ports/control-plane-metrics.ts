import type { RentalMode } from '../domain/lease';

/**
 * What the reconciler repaired of a lease no event or command moved on:
 * a PENDING one's lost command re-sent, a RELEASING one's release re-sent,
 * a silent task settled from SSM's record, a dead-lettered provision ended FAILED.
 */
export const LEASE_REPAIRS = [
  'provision-resent',
  'release-resent',
  'task-settled',
  'provision-dead-lettered',
] as const;
export type LeaseRepair = (typeof LEASE_REPAIRS)[number];

/** What operators watch on the dashboard that only the use cases know (CloudWatch via Powertools in Lambda). */
export interface ControlPlaneMetrics {
  /** A lease reached RUNNING `waitedMs` after it was requested. */
  leaseRunning(waitedMs: number): void;
  /** EC2 refused a launch in `mode` with `code` (before any fallback). */
  launchFailed(mode: RentalMode, code: string): void;
  /** The reconciler repaired `count` leases so (counted by repair, on the dashboard). */
  leasesRepaired(repair: LeaseRepair, count: number): void;
}
