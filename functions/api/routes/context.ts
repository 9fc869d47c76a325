import type { Quota } from '../../../shared/domain/admission/quota';
import type { LeaseStatus, LeaseView } from '../../../shared/domain/lease';
import type { ScalingGroupSpec } from '../../../shared/domain/scaling';
import type { TenantLimits } from '../../../shared/domain/tenant-limits';
import type { AdmissionStore } from '../../../shared/ports/admission-store';
import type { AuditStore, SpotTraceSource } from '../../../shared/ports/audits';
import type { FleetStorageLedger } from '../../../shared/ports/fleet-storage';
import type { IdleLedger, IdlePolicyRepository } from '../../../shared/ports/idle';
import type { MetricReader } from '../../../shared/ports/metrics';
import type { ScalingGroup } from '../../../shared/ports/scaling-groups';
import type { ScopedCredentials } from '../../../shared/ports/scoped-credentials';
import type { SpendAnomalyStore } from '../../../shared/ports/spend-anomalies';
import type { TaskLogs } from '../../../shared/ports/task-logs';
import type { TenantLimitsRepository } from '../../../shared/ports/tenant-limits';
import type { WarmPoolRepository } from '../../../shared/ports/warm-pools';
import type { CreateLeaseRequest, LeaseCreationDeps } from '../../../shared/usecases/create-lease';
import type { ControlPlane } from '../../../shared/usecases/dependencies';
import type { InstanceGpuMetrics, MetricsWindow } from '../../../shared/usecases/lease-metrics';
import type { ScalingGroupView } from '../../../shared/usecases/scaling-groups';

export type ApiDeps = LeaseCreationDeps &
  Pick<ControlPlane, 'ledger' | 'commitments' | 'spotPrices'> & {
    readonly audits: AuditStore;
    readonly spotTraces: SpotTraceSource;
    /** GPU telemetry: the lease metrics route, the profile and the audit read it. */
    readonly metrics: MetricReader;
    /** Tasks' output (GET /v1/leases/{id}/logs). */
    readonly taskLogs: TaskLogs;
    /** Credentials for Session Manager to one lease's instances (POST /v1/leases/{id}/session). */
    readonly sessions: ScopedCredentials;
    readonly idlePolicies: IdlePolicyRepository;
    /** The waste ledger's rollups: usage, the profile and the audit show idle time. */
    readonly idleLedger: IdleLedger;
    /** The tenants' spend-anomaly settings (GET/PUT /v1/spend-anomaly-settings). */
    readonly anomalies: Pick<SpendAnomalyStore, 'settings' | 'putSettings'>;
    /** Warm pools (the admin routes define them; the filler keeps them at size). */
    readonly warmPools: WarmPoolRepository;
    /** Tenants' quotas and use (the quota routes); the admission queue. */
    readonly admission: AdmissionStore;
    /** The quota of tenants an admin set none for. */
    readonly defaultQuota: Quota;
    /** The fleet's storage overhead, shown in the audit. */
    readonly fleetStorage: Pick<FleetStorageLedger, 'monthTotal'>;
    /** Admin-set per-tenant limits (the limits routes; the rate limit and caps read them cached). */
    readonly limits: TenantLimitsRepository;
  };

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
  /** Scaling groups and GPU metrics. */
  readonly scaling: ScalingApi;
  /** This instance's copy of tenants' limits; an admin's change here is seen at once. */
  readonly limits: { get(tenantId: string): Promise<TenantLimits>; forget(tenantId: string): void };
}

export interface ScalingApi {
  putGroup(
    tenantId: string,
    name: string,
    spec: ScalingGroupSpec,
  ): Promise<{ created: boolean; view: ScalingGroupView }>;
  getGroup(tenantId: string, name: string): Promise<ScalingGroupView>;
  listGroups(tenantId: string): Promise<ScalingGroup[]>;
  /** The lease ids released. */
  deleteGroup(tenantId: string, name: string): Promise<string[]>;
  leaseMetrics(tenantId: string, leaseId: string, window: MetricsWindow): Promise<InstanceGpuMetrics[]>;
}
