import { priceCatalog } from '../../../shared/catalog';
import { DEFAULT_QUOTA, MAX_QUOTA_GPUS, MAX_QUOTA_HOURLY_USD } from '../../../shared/domain/admission/quota';
import { usdToMicro } from '../../../shared/domain/money';
import { DEFAULT_PLACEMENT_COSTS } from '../../../shared/domain/placement-costs';
import { UnavailableOfferings } from '../../../shared/domain/unavailable-offerings';
import type { FleetRegion } from '../../../shared/ports/compute';
import type {
  BudgetControl,
  ControlPlane,
  PlacementSettings,
  TenantControl,
} from '../../../shared/usecases/dependencies';
import { FakeAdmissionStore } from './admission';
import { FakeAuditNotifier, FakeAuditStore } from './audits';
import { FakeBudgetNotifier, FakeBudgetRepository } from './budgets';
import { FakeClock } from './clock';
import { FakeCommitmentRepository } from './commitments';
import { FakeCompute } from './compute';
import { FakeDeadlineJobs } from './deadline-jobs';
import { FakeFleetStorageLedger } from './fleet-storage';
import { FakeIdleEpisodes, FakeIdleLedger, FakeIdleNotifier, FakeIdlePolicies } from './idle';
import { FakeImageRepository } from './images';
import { FakeLeaseRepository } from './lease-repository';
import { FakeDeadLetteredCommands, FakeEventPublisher, FakeLeaseCommandQueue } from './messaging';
import { FakeMeteringLedger, FakeSpendCounters } from './metering';
import { FakeControlPlaneMetrics, FakeMetricReader, FakeSpotPriceHistory } from './readings';
import { FakeGpuHealthMarks, FakeScalingGroupRepository } from './scaling-groups';
import { FakeLeaseExpiryScheduler, FakeTenantSettings } from './schedules';
import { FakeScopedCredentials, FakeTaskRunner } from './task-access';
import { FakeWarmPoolFillRequests, FakeWarmPoolRepository } from './warm-pools';

/** Noon UTC on a Monday in the middle of a month: far from every month and day edge. */
export const T0 = Date.parse('2026-11-16T12:00:00.000Z');
export const HOME = 'us-east-1';

export const DEFAULT_FLEET: readonly FleetRegion[] = [
  { region: 'us-east-1', zones: ['us-east-1a', 'us-east-1b'] },
  { region: 'us-west-2', zones: ['us-west-2a'] },
];

export interface FakeControlPlaneOptions {
  readonly nowMs?: number;
  readonly fleet?: readonly FleetRegion[];
  readonly placement?: Partial<PlacementSettings>;
}

/**
 * Every port of the control plane as an in-memory fake on one clock, wired as a
 * composition root wires the real adapters (the ledger writes the checkpoints
 * the lease repository reads and the counters budgets read). The object is a
 * ControlPlane (and BudgetControl, TenantControl) itself, so it can be handed
 * to any use case or a Pick<> of it; each fake keeps its knobs and records.
 */
export function fakeControlPlane(options: FakeControlPlaneOptions = {}) {
  const clock = new FakeClock(options.nowMs ?? T0);
  const fleet = options.fleet ?? DEFAULT_FLEET;
  const leases = new FakeLeaseRepository();
  const spend = new FakeSpendCounters();
  const placement: PlacementSettings = {
    regions: fleet.map((r) => r.region),
    costs: DEFAULT_PLACEMENT_COSTS,
    spotPriceSource: 'ec2',
    spotCatalogRatio: 0.4,
    defaultImage: 'gpu-base',
    unavailable: new UnavailableOfferings(),
    ...options.placement,
  };
  return {
    clock,
    now: clock.now,
    region: fleet[0]?.region ?? HOME,
    catalog: priceCatalog,
    placement,
    leases,
    spend,
    ledger: new FakeMeteringLedger(leases, spend),
    spotPrices: new FakeSpotPriceHistory(),
    compute: new FakeCompute(clock, fleet),
    commands: new FakeLeaseCommandQueue(clock),
    deadLetters: new FakeDeadLetteredCommands(),
    events: new FakeEventPublisher(),
    expiry: new FakeLeaseExpiryScheduler(),
    metrics: new FakeControlPlaneMetrics(),
    commitments: new FakeCommitmentRepository(),
    images: new FakeImageRepository(),
    warmPools: new FakeWarmPoolRepository(),
    warmFill: new FakeWarmPoolFillRequests(),
    fleetStorage: new FakeFleetStorageLedger(),
    budgets: new FakeBudgetRepository(),
    notifier: new FakeBudgetNotifier(),
    settings: new FakeTenantSettings(),
    groups: new FakeScalingGroupRepository(),
    marks: new FakeGpuHealthMarks(),
    metricReader: new FakeMetricReader(),
    audits: new FakeAuditStore(),
    auditNotifier: new FakeAuditNotifier(),
    idlePolicies: new FakeIdlePolicies(),
    idleEpisodes: new FakeIdleEpisodes(),
    idleLedger: new FakeIdleLedger(),
    idleNotifier: new FakeIdleNotifier(),
    deadlineJobs: new FakeDeadlineJobs(),
    admission: new FakeAdmissionStore(),
    // Unbounded, as locally: a use-case test queues leases under a quota it sets itself.
    defaultQuota: {
      ...DEFAULT_QUOTA,
      maxGpus: MAX_QUOTA_GPUS,
      maxHourlyMicroUsd: usdToMicro(MAX_QUOTA_HOURLY_USD),
    },
    tasks: {
      runner: new FakeTaskRunner(),
      checkpointBucket: 'checkpoints',
      taskOutputLogGroup: 'gpurent-task-output',
      machineAccess: new FakeScopedCredentials(clock.now),
    },
  } satisfies ControlPlane & BudgetControl & TenantControl & Record<string, unknown>;
}

export type FakeControlPlane = ReturnType<typeof fakeControlPlane>;
