import { EC2_EVENT_TYPES } from './domain/ec2-events';
import { SSM_COMMAND_EVENT_TYPE } from './domain/tasks/command-events';

/**
 * The one list of stateful resources. The CDK stack builds them from here and
 * the local runtime creates the same tables, queues and topics on the
 * emulators from here, so the two can never drift apart.
 */
export interface TableIndexDefinition {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey?: string;
  /**
   * What the index copies. `KEYS_ONLY` for an index over items that change often:
   * an update of attributes the index does not hold writes nothing to it.
   * @default 'ALL'
   */
  readonly projection?: 'ALL' | 'KEYS_ONLY';
}

export interface TableDefinition {
  /** Stable CDK construct ID; renaming it replaces the table. */
  readonly id: string;
  /** Environment variable that carries the table name to functions. */
  readonly envVar: string;
  readonly partitionKey: string;
  readonly sortKey?: string;
  readonly timeToLiveAttribute?: string;
  readonly indexes: readonly TableIndexDefinition[];
}

export interface QueueDefinition {
  readonly id: string;
  readonly envVar: string;
  readonly visibilityTimeoutSeconds: number;
  /** Receives before a message moves to the dead-letter queue. */
  readonly maxReceiveCount: number;
  /**
   * `eventbridge`: fed by an EventBridge rule rather than by gpurent. Locally
   * such a queue lives in moto's SQS, the only place moto's rules deliver to.
   */
  readonly fedBy?: 'eventbridge';
  /** Environment variable that carries the dead-letter queue's URL, for a queue whose DLQ gpurent reads back. */
  readonly deadLetterEnvVar?: string;
}

export interface TopicDefinition {
  readonly id: string;
  readonly envVar: string;
}

/** The leases table's index of the leases whose deadline job is not over. */
export const OPEN_DEADLINE_JOBS_INDEX = 'open-deadline-jobs';

/**
 * The leases table's index of leases not finished, partitioned by their status
 * (`openStatus`, dropped when the lease ends): the reconciler's walk of the
 * PENDING and RELEASING ones that no live instance leads it to.
 */
export const OPEN_LEASES_INDEX = 'open-leases';

/**
 * The leases table's index of leases waiting to start, partitioned by tenant
 * (`waitingTenant`, present only while PENDING or QUEUED): the API counts a
 * tenant's waiting leases against its cap with one bounded query.
 */
export const WAITING_LEASES_INDEX = 'waiting-leases';

/** The spend table's index of month-to-date counters by month. */
export const MONTH_COUNTERS_INDEX = 'month-counters';

export const TABLES = {
  /**
   * Leases and the instances they own (one partition per tenant), with the
   * deadline decisions of their jobs (`DEADLINE#<leaseId>#<instant>`); beside them
   * commitments, images and each spot pool's price history (`SPOTPRICE#<pool>`,
   * append-only, what spot instances are billed by).
   */
  leases: {
    id: 'LeasesTable',
    envVar: 'LEASES_TABLE_NAME',
    partitionKey: 'pk',
    sortKey: 'sk',
    indexes: [
      // Sparse: only instances whose bill is still open carry `meteringOpen`. Keys only:
      // every metering tick updates each open instance, and must not rewrite its index copy.
      { name: 'open-metering-keys', partitionKey: 'meteringOpen', sortKey: 'sk', projection: 'KEYS_ONLY' },
      // Sparse: only leases whose deadline job is not over carry `deadlineOpen`; the deadline
      // schedule's list across tenants. Keys only: a lease's item changes with every decision.
      {
        name: OPEN_DEADLINE_JOBS_INDEX,
        partitionKey: 'deadlineOpen',
        sortKey: 'sk',
        projection: 'KEYS_ONLY',
      },
      // Sparse: only leases not yet RELEASED or FAILED carry `openStatus` (their status). Keys
      // only: task and deadline writes leave it alone; a status change moves the lease between
      // partitions, and one query per status lists the leases to repair without a scan.
      { name: OPEN_LEASES_INDEX, partitionKey: 'openStatus', sortKey: 'sk', projection: 'KEYS_ONLY' },
      // Sparse: only leases PENDING or QUEUED carry `waitingTenant` (their tenant). Keys only:
      // a count of one tenant's partition, up to its cap, is all that reads it.
      {
        name: WAITING_LEASES_INDEX,
        partitionKey: 'waitingTenant',
        sortKey: 'sk',
        projection: 'KEYS_ONLY',
      },
    ],
  },
  /**
   * One usage record per metering transaction, holding its charges (lease,
   * instance, type, mode, project, instant, seconds, micro-dollars) for one tenant.
   * Rows expire (`expiresAt`, USAGE_ROW_TTL_DAYS); reports read the rollups.
   */
  usage: {
    id: 'UsageTable',
    envVar: 'USAGE_TABLE_NAME',
    partitionKey: 'pk',
    sortKey: 'sk',
    timeToLiveAttribute: 'expiresAt',
    indexes: [],
  },
  /**
   * Aggregates of every charge, per tenant: month-to-date counters (tenant,
   * project, mode) and daily rollups (mode × instance type × project; lease).
   * Metering adds to them in the transaction of each charge.
   */
  spend: {
    id: 'SpendTable',
    envVar: 'SPEND_TABLE_NAME',
    partitionKey: 'pk',
    sortKey: 'sk',
    indexes: [
      // Sparse: only month-to-date counters carry `month`; the audit schedule's list of the
      // tenants charged in a month is one query (`MONTH#m#TENANT` per tenant). Keys only:
      // every charge updates the counters' sums, which must not rewrite their index copies.
      { name: MONTH_COUNTERS_INDEX, partitionKey: 'month', sortKey: 'sk', projection: 'KEYS_ONLY' },
    ],
  },
  /** Tenants' budgets, each with the alert records of its current month. */
  budgets: {
    id: 'BudgetsTable',
    envVar: 'BUDGETS_TABLE_NAME',
    partitionKey: 'pk',
    sortKey: 'sk',
    indexes: [],
  },
  /**
   * Monthly audits, one per tenant and month (`TENANT#t`, `AUDIT#yyyy-mm`), written
   * once by the audit schedule, with the claim and time of their announcement.
   */
  audits: {
    id: 'AuditsTable',
    envVar: 'AUDITS_TABLE_NAME',
    partitionKey: 'pk',
    sortKey: 'sk',
    indexes: [],
  },
  /** Powertools idempotency records (API create, lease commands). */
  idempotency: {
    id: 'IdempotencyTable',
    envVar: 'IDEMPOTENCY_TABLE_NAME',
    partitionKey: 'id',
    timeToLiveAttribute: 'expiration',
    indexes: [],
  },
  /**
   * Admission (#19): one item per lease that asked for GPUs (`LEASE#<id>`, its
   * candidates, priority, status and, once admitted, what it holds), the
   * tenants' use and quota (`TENANTS`, one item each) and the fleet capacity
   * admission knows (`CAPACITY`, vCPU quotas and reserved slots). A pass
   * reserves the counters with `INTENT` items listing its claims, then marks
   * the leases, then settles the intents (`DynamoDbAdmissionStore`).
   */
  admission: {
    id: 'AdmissionTable',
    envVar: 'ADMISSION_TABLE_NAME',
    partitionKey: 'pk',
    sortKey: 'sk',
    indexes: [
      // Sparse: only waiting leases carry `queued`; one query lists the whole queue, oldest first.
      { name: 'queue', partitionKey: 'queued', sortKey: 'queuedAt' },
    ],
  },
  /** Scaling groups (spec, desired size, members, lock version) and their decisions (expire after a week). */
  scalingGroups: {
    id: 'ScalingGroupsTable',
    envVar: 'SCALING_GROUPS_TABLE_NAME',
    partitionKey: 'pk',
    sortKey: 'sk',
    timeToLiveAttribute: 'expiresAt',
    indexes: [
      // Sparse: only group items carry `groupIndex`; the evaluator's list of every group.
      { name: 'all-groups', partitionKey: 'groupIndex', sortKey: 'sk' },
    ],
  },
  /**
   * API requests per tenant and second (`RATE#<tenant>#<second>`, one counter
   * each), the per-tenant rate limit across every API instance; each expires
   * (`expiresAt`) a minute after its second.
   */
  requestCounts: {
    id: 'RequestCountsTable',
    envVar: 'REQUEST_COUNTS_TABLE_NAME',
    partitionKey: 'pk',
    timeToLiveAttribute: 'expiresAt',
    indexes: [],
  },
} as const satisfies Record<string, TableDefinition>;

export const QUEUES = {
  /** provision / release commands for the lease worker. */
  leaseCommands: {
    id: 'LeaseCommandsQueue',
    envVar: 'LEASE_COMMANDS_QUEUE_URL',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    // The reconciler drains it: a dead-lettered provision ends its lease FAILED (no lease left behind).
    deadLetterEnvVar: 'LEASE_COMMANDS_DLQ_URL',
  },
  /** Shares of a metering run that did not fit the scheduled invocation's time. */
  meteringWork: {
    id: 'MeteringWorkQueue',
    envVar: 'METERING_WORK_QUEUE_URL',
    // Six times the metering function's timeout (50 s), as AWS recommends.
    visibilityTimeoutSeconds: 300,
    maxReceiveCount: 5,
  },
  /** A lease took a warm machine: the warm-pool filler tops its pool up now rather than at its next run. */
  warmPoolFill: {
    id: 'WarmPoolFillQueue',
    envVar: 'WARM_POOL_FILL_QUEUE_URL',
    // Six times the filler's timeout (60 s).
    visibilityTimeoutSeconds: 360,
    maxReceiveCount: 5,
  },
  /** EC2 spot interruption, rebalance and state-change events for the interruption handler. */
  ec2Events: {
    id: 'Ec2EventsQueue',
    envVar: 'EC2_EVENTS_QUEUE_URL',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    fedBy: 'eventbridge',
  },
  /** SSM's status changes of task command invocations, for the task-events handler. */
  taskEvents: {
    id: 'TaskEventsQueue',
    envVar: 'TASK_EVENTS_QUEUE_URL',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    fedBy: 'eventbridge',
  },
} as const satisfies Record<string, QueueDefinition>;

export const TOPICS = {
  budgetAlerts: { id: 'BudgetAlertsTopic', envVar: 'BUDGET_ALERTS_TOPIC_ARN' },
  /** Operational alarms (dead letters, failing functions) for the people running gpurent. */
  operatorAlerts: { id: 'OperatorAlertsTopic', envVar: 'OPERATOR_ALERTS_TOPIC_ARN' },
} as const satisfies Record<string, TopicDefinition>;

export interface EventBusDefinition {
  readonly id: string;
  /** Physical name; integrators subscribe to it, so it is fixed. */
  readonly name: string;
  readonly envVar: string;
}

/** The custom bus that carries gpurent domain events (lease.*, usage.*, budget.*). */
export const EVENT_BUS = {
  id: 'DomainEventBus',
  name: 'gpurent',
  envVar: 'EVENT_BUS_NAME',
} as const satisfies EventBusDefinition;

export interface ScheduleGroupDefinition {
  readonly id: string;
  readonly name: string;
  readonly envVar: string;
}

/**
 * The EventBridge Scheduler group of the one-time schedules that release
 * leases when their time is up (`expire-<leaseId>`); they send an `expire`
 * command to the lease commands queue, whose ARN is in `queueArnEnvVar`.
 */
export const LEASE_EXPIRY = {
  group: {
    id: 'LeaseExpiryScheduleGroup',
    name: 'gpurent-lease-expiry',
    envVar: 'LEASE_EXPIRY_SCHEDULE_GROUP',
  },
  queueArnEnvVar: 'LEASE_COMMANDS_QUEUE_ARN',
  roleArnEnvVar: 'LEASE_EXPIRY_ROLE_ARN',
} as const satisfies {
  group: ScheduleGroupDefinition;
  queueArnEnvVar: string;
  roleArnEnvVar: string;
};

export interface LogGroupDefinition {
  readonly id: string;
  readonly envVar: string;
  readonly retentionDays: number;
}

export const LOG_GROUPS = {
  /** Tasks' output, written by SSM Run Command: `<commandId>/<instanceId>/aws-runShellScript/<stdout|stderr>`. */
  taskOutput: { id: 'TaskOutputLogGroup', envVar: 'TASK_LOG_GROUP_NAME', retentionDays: 30 },
} as const satisfies Record<string, LogGroupDefinition>;

export interface BucketDefinition {
  readonly id: string;
  readonly envVar: string;
  /** Objects expire this long after they were written. */
  readonly expireAfterDays: number;
  /** A version overwritten or deleted is kept this long (the bucket is versioned). */
  readonly nonCurrentDays: number;
}

export const BUCKETS = {
  /** Tasks' checkpoints, one prefix per lease (`<tenantId>/<leaseId>/`), so a retried attempt resumes. */
  checkpoints: {
    id: 'CheckpointBucket',
    envVar: 'CHECKPOINT_BUCKET_NAME',
    expireAfterDays: 30,
    // An overwritten or deleted checkpoint stays recoverable this long (the bucket is versioned).
    nonCurrentDays: 30,
  },
} as const satisfies Record<string, BucketDefinition>;

/**
 * The role whose credentials, narrowed per lease by a session policy, open
 * Session Manager sessions to a lease's instances (POST /v1/leases/{id}/session).
 */
export const SESSION_ROLE = { id: 'LeaseSessionRole', envVar: 'SESSION_ROLE_ARN' } as const;

/**
 * The role whose credentials, narrowed per lease by a session policy
 * (`leaseMachinePolicy`) to that lease's checkpoint prefix, its tenant's
 * parameters, secrets and images, its own task output streams and metric
 * namespace, are all a lease's machine acts with: the functions that start
 * attempts or refresh them assume it and write the credentials onto the machine.
 */
export const LEASE_MACHINE_ROLE = { id: 'LeaseMachineRole', envVar: 'LEASE_MACHINE_ROLE_ARN' } as const;

export type TableName = keyof typeof TABLES;
export type LogGroupName = keyof typeof LOG_GROUPS;
export type QueueName = keyof typeof QUEUES;
export type TopicName = keyof typeof TOPICS;

/**
 * The rule on the default bus of every GPU region that carries EC2's events
 * about instances to the ec2Events queue (from other regions via the home
 * region's default bus). CDK and the local runtime build the same rule.
 */
export const EC2_EVENTS_RULE = {
  id: 'Ec2InstanceEventsRule',
  eventPattern: {
    source: ['aws.ec2'],
    'detail-type': Object.values(EC2_EVENT_TYPES),
  },
} as const;

/**
 * The rule on the default bus that carries SSM's status changes of command
 * invocations (a task's start and end) to the taskEvents queue.
 */
export const TASK_EVENTS_RULE = {
  id: 'TaskCommandEventsRule',
  eventPattern: {
    source: ['aws.ssm'],
    'detail-type': [SSM_COMMAND_EVENT_TYPE],
  },
} as const;
