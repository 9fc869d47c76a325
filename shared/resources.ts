/**
 * The one list of stateful resources. The CDK stack builds them from here and
 * the local runtime creates the same tables, queues and topics on the
 * emulators from here, so the two can never drift apart.
 */
export interface TableIndexDefinition {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey?: string;
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
}

export interface TopicDefinition {
  readonly id: string;
  readonly envVar: string;
}

export const TABLES = {
  /** Leases and the instances they own (one partition per tenant). */
  leases: {
    id: 'LeasesTable',
    envVar: 'LEASES_TABLE_NAME',
    partitionKey: 'pk',
    sortKey: 'sk',
    indexes: [
      // Sparse: only instances whose bill is still open carry `meteringOpen`.
      { name: 'open-metering', partitionKey: 'meteringOpen', sortKey: 'sk' },
    ],
  },
  /** One row per charge: tenant, lease, instance, mode, seconds, micro-dollars. */
  usage: {
    id: 'UsageTable',
    envVar: 'USAGE_TABLE_NAME',
    partitionKey: 'pk',
    sortKey: 'sk',
    indexes: [],
  },
  /**
   * Month-to-date spend counters per tenant and month: the whole tenant, each
   * project, mode and lease. Metering adds to them with every charge.
   */
  spend: {
    id: 'SpendTable',
    envVar: 'SPEND_TABLE_NAME',
    partitionKey: 'pk',
    sortKey: 'sk',
    indexes: [],
  },
  /** Tenants' budgets, each with the alert records of its current month. */
  budgets: {
    id: 'BudgetsTable',
    envVar: 'BUDGETS_TABLE_NAME',
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
} as const satisfies Record<string, TableDefinition>;

export const QUEUES = {
  /** provision / release commands for the lease worker. */
  leaseCommands: {
    id: 'LeaseCommandsQueue',
    envVar: 'LEASE_COMMANDS_QUEUE_URL',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
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

export type TableName = keyof typeof TABLES;
export type QueueName = keyof typeof QUEUES;
export type TopicName = keyof typeof TOPICS;
