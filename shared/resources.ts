import { EC2_EVENT_TYPES } from './domain/ec2-events';

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
  /**
   * `eventbridge`: fed by an EventBridge rule rather than by gpurent. Locally
   * such a queue lives in moto's SQS, the only place moto's rules deliver to.
   */
  readonly fedBy?: 'eventbridge';
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
  /** EC2 spot interruption, rebalance and state-change events for the interruption handler. */
  ec2Events: {
    id: 'Ec2EventsQueue',
    envVar: 'EC2_EVENTS_QUEUE_URL',
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

export type TableName = keyof typeof TABLES;
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
