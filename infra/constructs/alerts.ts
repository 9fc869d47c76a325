import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { TOPICS, type TopicDefinition, type TopicName } from '../../shared/resources';
import type { TopicBinding } from './gpurent-function';
import type { DeadLetteredQueue } from './queues';

export interface GpurentAlertsProps {
  /**
   * E-mail address subscribed to the operator alerts topic.
   * @default - no subscription; subscribe out of band
   */
  readonly operatorEmail?: string;
}

/**
 * The SNS topics of `TOPICS` (`shared/resources.ts`): tenants' budget alerts and the
 * operators' alarms. Both are encrypted with one customer managed KMS key (rotated
 * yearly), because CloudWatch alarms cannot publish to a topic encrypted with the
 * AWS managed `aws/sns` key; both refuse publishes over plain HTTP.
 *
 * Alarms (dead letters, function errors) go to the `operatorAlerts` topic, never to
 * the budget topic tenants' finance people read.
 */
export class GpurentAlerts extends Construct {
  public readonly key: Key;
  public readonly topics: { readonly [K in TopicName]: Topic };
  /** Every alarm made here, in order: the dashboard shows their states. */
  public readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: GpurentAlertsProps = {}) {
    super(scope, id);
    this.key = new Key(this, 'TopicsKey', {
      description: 'Encrypts the gpurent SNS topics (budget and operator alerts)',
      enableKeyRotation: true,
    });
    // Lets CloudWatch alarms publish to the encrypted topics.
    this.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowCloudWatchAlarmsToUseTheKey',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
      }),
    );

    const topics: Partial<Record<TopicName, Topic>> = {};
    for (const [name, definition] of Object.entries(TOPICS) as [TopicName, TopicDefinition][]) {
      topics[name] = new Topic(this, definition.id, {
        displayName: `gpurent ${name}`,
        masterKey: this.key,
        enforceSSL: true,
      });
    }
    this.topics = topics as Record<TopicName, Topic>;

    if (props.operatorEmail) {
      this.topics.operatorAlerts.addSubscription(new EmailSubscription(props.operatorEmail));
    }
  }

  /** A topic and the environment variable functions read its ARN from. */
  public binding(name: TopicName): TopicBinding {
    return { topic: this.topics[name], envVar: TOPICS[name].envVar };
  }

  /** Alarms as soon as one message sits in the queue's dead-letter queue. */
  public alarmOnDeadLetters(queue: DeadLetteredQueue): Alarm {
    return this.alarmOnAny(
      `${queue.definition.id}DeadLettersAlarm`,
      `Messages in the dead-letter queue of ${queue.definition.id}: commands failed ${queue.definition.maxReceiveCount} times and need an operator.`,
      queue.metricDeadLetterDepth(),
    );
  }

  /** Alarms when a function fails (unhandled errors, timeouts) within 5 minutes. */
  public alarmOnErrors(id: string, fn: IFunction): Alarm {
    return this.alarmOnAny(
      `${id}ErrorsAlarm`,
      `The gpurent ${id} function failed (unhandled error or timeout).`,
      fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
    );
  }

  /** Alarms when Lambda throttles a function (concurrency exhausted) within 5 minutes. */
  public alarmOnThrottles(id: string, fn: IFunction): Alarm {
    return this.alarmOnAny(
      `${id}ThrottlesAlarm`,
      `The gpurent ${id} function was throttled: invocations were refused for lack of concurrency.`,
      fn.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' }),
    );
  }

  /** Alarms when the reconciler found and ended a GPU instance no live lease owned. */
  public alarmOnOrphans(orphansTerminated: IMetric): Alarm {
    return this.alarmOnAny(
      'OrphansFoundAlarm',
      'The reconciler terminated GPU instances that no live lease owned: something launched or kept them outside a lease.',
      orphansTerminated,
    );
  }

  /**
   * Alarms when bills fall behind: metering's lag over `thresholdSeconds` for three
   * minutes running, or no metering run at all for three minutes (missing data breaches).
   */
  public alarmOnMeteringLag(meteringLag: IMetric, thresholdSeconds: number): Alarm {
    const alarm = new Alarm(this, 'MeteringLagAlarm', {
      alarmDescription: `Metering is more than ${thresholdSeconds} s behind, or has not run for 3 minutes: usage, spend and budgets are stale.`,
      metric: meteringLag,
      threshold: thresholdSeconds,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      treatMissingData: TreatMissingData.BREACHING,
    });
    this.notifyOperators(alarm);
    return alarm;
  }

  /** An alarm that fires on the first occurrence (one datapoint at or above 1) and tells operators. */
  private alarmOnAny(id: string, description: string, metric: IMetric): Alarm {
    const alarm = new Alarm(this, id, {
      alarmDescription: description,
      metric,
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.notifyOperators(alarm);
    return alarm;
  }

  private notifyOperators(alarm: Alarm): void {
    this.alarms.push(alarm);
    const action = new SnsAction(this.topics.operatorAlerts);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
  }
}
