import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { QUEUES, type QueueDefinition, type QueueName } from '../../shared/resources';
import type { QueueBinding } from './gpurent-function';

export interface DeadLetteredQueueProps {
  /** The queue's entry in `QUEUES` (`shared/resources.ts`). */
  readonly definition: QueueDefinition;

  /**
   * How long the dead-letter queue keeps messages (the SQS maximum by default, so
   * there is time to look at them).
   * @default Duration.days(14)
   */
  readonly deadLetterRetention?: Duration;

  /**
   * What happens to the dead-letter queue, and the messages in it, when it leaves the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly deadLetterRemovalPolicy?: RemovalPolicy;
}

/**
 * A work queue and its dead-letter queue: both encrypted (SSE-SQS), both refusing
 * plain-HTTP requests; a message moves to the dead-letter queue after
 * `maxReceiveCount` receives.
 */
export class DeadLetteredQueue extends Construct {
  public readonly queue: Queue;
  public readonly deadLetterQueue: Queue;
  public readonly definition: QueueDefinition;

  constructor(scope: Construct, id: string, props: DeadLetteredQueueProps) {
    super(scope, id);
    const { definition } = props;
    if (definition.maxReceiveCount < 1) {
      throw new Error(
        `Queue ${definition.id}: maxReceiveCount must be at least 1 (got ${definition.maxReceiveCount}).`,
      );
    }
    this.definition = definition;

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      retentionPeriod: props.deadLetterRetention ?? Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      removalPolicy: props.deadLetterRemovalPolicy ?? RemovalPolicy.RETAIN,
    });
    this.queue = new Queue(this, 'Queue', {
      visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: definition.maxReceiveCount },
    });
  }

  /** The queue and the environment variable functions read its URL from. */
  public get binding(): QueueBinding {
    return { queue: this.queue, envVar: this.definition.envVar };
  }

  public grantSendMessages(grantee: IGrantable) {
    return this.queue.grantSendMessages(grantee);
  }

  public grantConsumeMessages(grantee: IGrantable) {
    return this.queue.grantConsumeMessages(grantee);
  }

  /** Age of the oldest unprocessed message: grows when consumers stall. */
  public metricApproximateAgeOfOldestMessage(props?: MetricOptions) {
    return this.queue.metricApproximateAgeOfOldestMessage(props);
  }

  /** Messages waiting in the work queue itself (maximum over 1 minute by default): the backlog. */
  public metricDepth(props?: MetricOptions) {
    return this.queue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(1),
      statistic: 'Maximum',
      ...props,
    });
  }

  /** Messages waiting in the dead-letter queue (maximum over 1 minute by default). */
  public metricDeadLetterDepth(props?: MetricOptions) {
    return this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(1),
      statistic: 'Maximum',
      ...props,
    });
  }
}

export interface GpurentQueuesProps {
  /** @default RemovalPolicy.RETAIN */
  readonly deadLetterRemovalPolicy?: RemovalPolicy;
}

/** Every queue of `QUEUES` in `shared/resources.ts`, each with its dead-letter queue. */
export class GpurentQueues extends Construct {
  public readonly queues: { readonly [K in QueueName]: DeadLetteredQueue };

  constructor(scope: Construct, id: string, props: GpurentQueuesProps = {}) {
    super(scope, id);
    const queues: Partial<Record<QueueName, DeadLetteredQueue>> = {};
    for (const [name, definition] of Object.entries(QUEUES) as [QueueName, QueueDefinition][]) {
      queues[name] = new DeadLetteredQueue(this, definition.id, {
        definition,
        deadLetterRemovalPolicy: props.deadLetterRemovalPolicy,
      });
    }
    this.queues = queues as Record<QueueName, DeadLetteredQueue>;
  }

  /** All queues, for alarms and dashboards. */
  public get all(): DeadLetteredQueue[] {
    return Object.values(this.queues);
  }
}
