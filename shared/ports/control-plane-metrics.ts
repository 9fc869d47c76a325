import type { RentalMode } from '../domain/lease';

/** What operators watch on the dashboard that only the use cases know (CloudWatch via Powertools in Lambda). */
export interface ControlPlaneMetrics {
  /** A lease reached RUNNING `waitedMs` after it was requested. */
  leaseRunning(waitedMs: number): void;
  /** EC2 refused a launch in `mode` with `code` (before any fallback). */
  launchFailed(mode: RentalMode, code: string): void;
}
