import type { LeaseCommand } from './ports/lease-commands';
import type { WaitEndOutcome } from './usecases/admission/wait-ends';
import type { ScheduledDecisionOutcome } from './usecases/deadline-steering';
import type { InterruptionOutcome, ReplaceOutcome } from './usecases/interruptions';
import type { AbandonOutcome, ProvisionOutcome } from './usecases/provision-lease';
import type { expireLease, ReleaseOutcome } from './usecases/release-lease';

/**
 * The names of the Powertools metrics the functions emit and the operations
 * dashboard and alarms read (namespace `gpurent`), in one place so a widget
 * cannot watch a name nothing sends.
 */
export const METRIC_NAMES = {
  runningLeases: 'RunningLeases',
  runningGpus: 'RunningGpus',
  meteredMicroUsd: 'MeteredMicroUsd',
  meteringLag: 'MeteringLag',
  timeToRunning: 'TimeToRunning',
  launchFailures: 'LaunchFailures',
  /** Domain events of something that happened anyway that could not be published (integrators missed them). */
  domainEventsLost: 'DomainEventsLost',
  scalingDecisions: 'ScalingDecisions',
  scalingGroupFailures: 'ScalingGroupFailures',
  budgetAlertsSent: 'BudgetAlertsSent',
  budgetActionsTaken: 'BudgetActionsTaken',
  orphansTerminated: 'OrphansTerminated',
  vanishedInstancesEnded: 'VanishedInstancesEnded',
  /** Leases the reconciler repaired, by `repair` (LEASE_REPAIRS): lost commands, silent tasks, dead letters. */
  leasesRepaired: 'LeasesRepaired',
  spotPriceChangesRecorded: 'SpotPriceChangesRecorded',
  queuedLeases: 'QueuedLeases',
  leasesAdmitted: 'LeasesAdmitted',
  queueTimeouts: 'QueueTimeouts',
  capacityPoolsWritten: 'CapacityPoolsWritten',
  vcpuQuotasUnavailable: 'VcpuQuotasUnavailable',
} as const;

/** What each lease command can come to, by command: the lease worker counts each as `<type>-<outcome>`. */
export interface CommandOutcomes {
  provision: ProvisionOutcome;
  start: ProvisionOutcome;
  release: ReleaseOutcome;
  expire: Awaited<ReturnType<typeof expireLease>>;
  replace: ReplaceOutcome;
  decide: ScheduledDecisionOutcome;
  'time-out': WaitEndOutcome;
  abandon: AbandonOutcome;
}

/** The lease worker's count of one command's outcome. */
export function leaseCommandMetric<Type extends LeaseCommand['type']>(
  type: Type,
  outcome: CommandOutcomes[Type],
): string {
  return `${type}-${outcome}`;
}

/** The interruption handler's count of one EC2 event's outcome. */
export const ec2EventMetric = (outcome: InterruptionOutcome): string => `ec2-event-${outcome}`;
