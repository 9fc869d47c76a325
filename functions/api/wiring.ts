import { nonEmpty } from '../../shared/config';
import { defaultTenantLimits, defaultTenantQuota } from '../../shared/lambda/admission';
import { idempotencyStore } from '../../shared/lambda/idempotency';
import { leaseExpiryScheduler } from '../../shared/lambda/lease-expiry';
import { domainEventPublisher, leaseCommandQueue } from '../../shared/lambda/messaging';
import { ec2Compute, placementSettings } from '../../shared/lambda/placement';
import { portFactory, type Wiring } from '../../shared/lambda/port-factory';
import {
  admissionStore,
  auditStore,
  budgetRepository,
  commitmentRepository,
  fleetStorageLedger,
  idleLedger,
  idlePolicyRepository,
  imageRepository,
  leaseRepository,
  meteringLedger,
  requestCounter,
  scalingGroupRepository,
  spendAnomalyStore,
  spendCounters,
  spotPriceHistory,
  tenantLimitsRepository,
  tenantSettings,
  warmPoolRepository,
} from '../../shared/lambda/stores';
import { leaseSessionCredentials, taskLogReader } from '../../shared/lambda/task-access';
import {
  gpuMetricReader,
  gpuTemperatureLimit,
  homeRegion,
  priceCatalogValue,
  spotTraceFiles,
  wallClock,
} from '../../shared/lambda/values';
import * as z from '../../shared/zod';

/** The API's own settings. */
const apiSettings = portFactory({
  env: {
    DEFAULT_INSTANCE_TYPE: z._default(nonEmpty, 'g5.xlarge'),
    /** How long an Idempotency-Key is remembered. */
    IDEMPOTENCY_TTL_SECONDS: z._default(z.coerce.number().check(z.int(), z.positive()), 86_400),
  },
  reaches: [],
  create: (env) => ({
    defaultInstanceType: env.DEFAULT_INSTANCE_TYPE,
    idempotencyTtlSeconds: env.IDEMPOTENCY_TTL_SECONDS,
  }),
});

/**
 * The API's ports: what the routes are given (`ApiDeps`, by the same names),
 * the scaling groups, the idempotency records of lease creation, and its settings.
 */
export const apiWiring = {
  leases: leaseRepository('readWrite'),
  ledger: meteringLedger('read'),
  spend: spendCounters('read'),
  spotPrices: spotPriceHistory('read'),
  // Reservations are written beside leases; their idle time is read from the usage table.
  commitments: commitmentRepository('readWrite', 'read'),
  images: imageRepository('readWrite'),
  settings: tenantSettings('readWrite'),
  budgets: budgetRepository('readWrite'),
  // GET /v1/audit/{month}: the stored audit, else one built on the spot.
  audits: auditStore('read'),
  fleetStorage: fleetStorageLedger('read'),
  spotTraces: spotTraceFiles(),
  // GET /v1/leases/{id}/metrics, the profile and the audit read the GPU telemetry.
  metrics: gpuMetricReader(),
  // GET /v1/leases/{id}/logs reads the tasks' output; POST /v1/leases/{id}/session mints credentials.
  taskLogs: taskLogReader(),
  sessions: leaseSessionCredentials(),
  // GET /v1/pools and the maxHourlyPrice check read the fleets and spot prices; registering an
  // image version adds a launch template version for its AMI.
  compute: ec2Compute('fleet', 'spotPrices', 'imageVersions'),
  placement: placementSettings(),
  expiry: leaseExpiryScheduler(),
  commands: leaseCommandQueue(),
  events: domainEventPublisher(),
  catalog: priceCatalogValue(),
  region: homeRegion(),
  now: wallClock(),
  groups: scalingGroupRepository('readWrite'),
  idlePolicies: idlePolicyRepository('readWrite'),
  idleLedger: idleLedger('read'),
  // PUT /v1/spend-anomaly-settings; metering reads them.
  anomalies: spendAnomalyStore('readWrite'),
  warmPools: warmPoolRepository('readWrite'),
  // The quota routes: admins set quotas, tenants read theirs and their use.
  admission: admissionStore('readWrite'),
  defaultQuota: defaultTenantQuota(),
  temperatureLimitC: gpuTemperatureLimit(),
  // Admins set per-tenant limits; every request is counted against the tenant's rate.
  limits: tenantLimitsRepository('readWrite'),
  defaultLimits: defaultTenantLimits(),
  requests: requestCounter(),
  idempotency: idempotencyStore(),
  api: apiSettings,
} satisfies Wiring;
