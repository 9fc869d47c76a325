import { DynamoDbAdmissionStore } from '../adapters/dynamodb-admission-store';
import { DynamoDbAuditStore, DynamoDbChargedTenants } from '../adapters/dynamodb-audit-store';
import { DynamoDbBudgetRepository } from '../adapters/dynamodb-budget-repository';
import { DynamoDbCommitmentRepository } from '../adapters/dynamodb-commitments';
import { DynamoDbFleetStorageLedger } from '../adapters/dynamodb-fleet-storage';
import { DynamoDbGpuHealthMarks } from '../adapters/dynamodb-gpu-health-marks';
import { DynamoDbIdleEpisodes } from '../adapters/dynamodb-idle-episodes';
import { DynamoDbIdleLedger } from '../adapters/dynamodb-idle-ledger';
import { DynamoDbIdlePolicies } from '../adapters/dynamodb-idle-policies';
import { DynamoDbImageRepository } from '../adapters/dynamodb-images';
import { DynamoDbLeaseRepository } from '../adapters/dynamodb-lease-repository';
import { DynamoDbMeteringLedger } from '../adapters/dynamodb-metering-ledger';
import { DynamoDbScalingGroupRepository } from '../adapters/dynamodb-scaling-group-repository';
import { DynamoDbSpendAnomalies } from '../adapters/dynamodb-spend-anomalies';
import { DynamoDbSpendCounters } from '../adapters/dynamodb-spend-counters';
import { DynamoDbSpotPriceHistory } from '../adapters/dynamodb-spot-price-history';
import { DynamoDbRequestCounter, DynamoDbTenantLimits } from '../adapters/dynamodb-tenant-limits';
import { DynamoDbTenantSettings } from '../adapters/dynamodb-tenant-settings';
import { DynamoDbWarmPoolRepository } from '../adapters/dynamodb-warm-pools';
import { nonEmpty } from '../config';
import { TABLES } from '../resources';
import * as z from '../zod';
import { portFactory, type TableAccess } from './port-factory';

/*
 * One factory per DynamoDB-backed port. Each names the tables it reaches and
 * how (the caller says whether it only reads), and reads only their variables.
 */
const LEASES = { [TABLES.leases.envVar]: nonEmpty };
const USAGE = { [TABLES.usage.envVar]: nonEmpty };
const SPEND = { [TABLES.spend.envVar]: nonEmpty };
const BUDGETS = { [TABLES.budgets.envVar]: nonEmpty };
const AUDITS = { [TABLES.audits.envVar]: nonEmpty };
const SCALING_GROUPS = { [TABLES.scalingGroups.envVar]: nonEmpty };
const ADMISSION = { [TABLES.admission.envVar]: nonEmpty };
const REQUEST_COUNTS = { [TABLES.requestCounts.envVar]: nonEmpty };

const table = (name: keyof typeof TABLES, access: TableAccess) =>
  ({ kind: 'table', table: name, access }) as const;

export const leaseRepository = (access: TableAccess) =>
  portFactory({
    env: LEASES,
    reaches: [table('leases', access)],
    create: (env, clients) => new DynamoDbLeaseRepository(clients.documents, env.LEASES_TABLE_NAME),
  });

/** Charges land on the usage rows, the instance and the spend counters in one transaction. */
export const meteringLedger = (access: TableAccess) =>
  portFactory({
    env: {
      ...LEASES,
      ...USAGE,
      ...SPEND,
      /**
       * How long raw usage records are kept (the charge-by-charge trail); reports and
       * audits read rollups, the export reads leases.
       */
      USAGE_ROW_TTL_DAYS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(3650)), 400),
    },
    reaches: [table('leases', access), table('usage', access), table('spend', access)],
    create: (env, clients) =>
      new DynamoDbMeteringLedger(
        clients.documents,
        { leases: env.LEASES_TABLE_NAME, usage: env.USAGE_TABLE_NAME, spend: env.SPEND_TABLE_NAME },
        { usageRowTtlDays: env.USAGE_ROW_TTL_DAYS },
      ),
  });

export const spendCounters = (access: TableAccess) =>
  portFactory({
    env: SPEND,
    reaches: [table('spend', access)],
    create: (env, clients) => new DynamoDbSpendCounters(clients.documents, env.SPEND_TABLE_NAME),
  });

/** The tenants charged in a month, from the spend table's month-counters index. */
export const chargedTenants = () =>
  portFactory({
    env: SPEND,
    reaches: [table('spend', 'read')],
    create: (env, clients) => new DynamoDbChargedTenants(clients.documents, env.SPEND_TABLE_NAME),
  });

export const spotPriceHistory = (access: TableAccess) =>
  portFactory({
    env: LEASES,
    reaches: [table('leases', access)],
    create: (env, clients) => new DynamoDbSpotPriceHistory(clients.documents, env.LEASES_TABLE_NAME),
  });

export const imageRepository = (access: TableAccess) =>
  portFactory({
    env: LEASES,
    reaches: [table('leases', access)],
    create: (env, clients) => new DynamoDbImageRepository(clients.documents, env.LEASES_TABLE_NAME),
  });

/** Commitments live beside leases; the fleet's idle reserved time is recorded in the usage table. */
export const commitmentRepository = (leases: TableAccess, usage: TableAccess = leases) =>
  portFactory({
    env: { ...LEASES, ...USAGE },
    reaches: [table('leases', leases), table('usage', usage)],
    create: (env, clients) =>
      new DynamoDbCommitmentRepository(clients.documents, {
        leases: env.LEASES_TABLE_NAME,
        usage: env.USAGE_TABLE_NAME,
      }),
  });

export const tenantSettings = (access: TableAccess) =>
  portFactory({
    env: LEASES,
    reaches: [table('leases', access)],
    create: (env, clients) => new DynamoDbTenantSettings(clients.documents, env.LEASES_TABLE_NAME),
  });

/** Admin-set per-tenant limits (rate, caps), beside the tenant's settings. */
export const tenantLimitsRepository = (access: TableAccess) =>
  portFactory({
    env: LEASES,
    reaches: [table('leases', access)],
    create: (env, clients) => new DynamoDbTenantLimits(clients.documents, env.LEASES_TABLE_NAME),
  });

/** The API's per-tenant request counters: one conditional write per request. */
export const requestCounter = () =>
  portFactory({
    env: REQUEST_COUNTS,
    reaches: [table('requestCounts', 'readWrite')],
    create: (env, clients) => new DynamoDbRequestCounter(clients.documents, env.REQUEST_COUNTS_TABLE_NAME),
  });

export const budgetRepository = (access: TableAccess) =>
  portFactory({
    env: BUDGETS,
    reaches: [table('budgets', access)],
    create: (env, clients) => new DynamoDbBudgetRepository(clients.documents, env.BUDGETS_TABLE_NAME),
  });

export const auditStore = (access: TableAccess) =>
  portFactory({
    env: AUDITS,
    reaches: [table('audits', access)],
    create: (env, clients) => new DynamoDbAuditStore(clients.documents, env.AUDITS_TABLE_NAME),
  });

export const scalingGroupRepository = (access: TableAccess) =>
  portFactory({
    env: SCALING_GROUPS,
    reaches: [table('scalingGroups', access)],
    create: (env, clients) =>
      new DynamoDbScalingGroupRepository(clients.documents, env.SCALING_GROUPS_TABLE_NAME),
  });

/** GPU health marks live beside the scaling groups they watch. */
export const gpuHealthMarks = () =>
  portFactory({
    env: SCALING_GROUPS,
    reaches: [table('scalingGroups', 'readWrite')],
    create: (env, clients) => new DynamoDbGpuHealthMarks(clients.documents, env.SCALING_GROUPS_TABLE_NAME),
  });

/** The admission queue, tenants' use and quotas, and the capacity admission knows (#19). */
export const admissionStore = (access: TableAccess) =>
  portFactory({
    env: ADMISSION,
    reaches: [table('admission', access)],
    create: (env, clients) => new DynamoDbAdmissionStore(clients.documents, env.ADMISSION_TABLE_NAME),
  });

/** Tenants' idle policies (admin and tenant), in their leases-table partitions. */
export const idlePolicyRepository = (access: TableAccess) =>
  portFactory({
    env: LEASES,
    reaches: [table('leases', access)],
    create: (env, clients) => new DynamoDbIdlePolicies(clients.documents, env.LEASES_TABLE_NAME),
  });

/** Open idle episodes and their notices' claims, beside the GPU health marks. */
export const idleEpisodes = () =>
  portFactory({
    env: SCALING_GROUPS,
    reaches: [table('scalingGroups', 'readWrite')],
    create: (env, clients) => new DynamoDbIdleEpisodes(clients.documents, env.SCALING_GROUPS_TABLE_NAME),
  });

/** The waste ledger: idle checkpoints and daily idle rollups in the spend table (the evaluator writes, reports read). */
export const idleLedger = (access: TableAccess) =>
  portFactory({
    env: SPEND,
    reaches: [table('spend', access)],
    create: (env, clients) => new DynamoDbIdleLedger(clients.documents, env.SPEND_TABLE_NAME),
  });

/** Warm pools and their machines live beside leases, in their own partition. */
export const warmPoolRepository = (access: TableAccess) =>
  portFactory({
    env: LEASES,
    reaches: [table('leases', access)],
    create: (env, clients) => new DynamoDbWarmPoolRepository(clients.documents, env.LEASES_TABLE_NAME),
  });

/** The fleet's storage overhead (warm pools' stopped volumes) in the spend table's fleet partition. */
export const fleetStorageLedger = (access: TableAccess) =>
  portFactory({
    env: SPEND,
    reaches: [table('spend', access)],
    create: (env, clients) => new DynamoDbFleetStorageLedger(clients.documents, env.SPEND_TABLE_NAME),
  });

/** Spend-anomaly baselines (metering writes them each run) and the tenants' anomaly settings, in the spend table. */
export const spendAnomalyStore = (access: TableAccess) =>
  portFactory({
    env: SPEND,
    reaches: [table('spend', access)],
    create: (env, clients) => new DynamoDbSpendAnomalies(clients.documents, env.SPEND_TABLE_NAME),
  });
