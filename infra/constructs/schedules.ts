import { Aws, Duration } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LambdaDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import {
  ContextAttribute,
  type CronOptionsWithTimezone,
  Schedule,
  ScheduleExpression,
  ScheduleGroup,
  ScheduleTargetInput,
} from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';
import { acknowledgeWildcardResource } from './nag';

export interface FunctionScheduleOptions {
  /** How often the function runs; at least one minute. Give this or `cron`. */
  readonly every?: Duration;
  /** When the function runs, as a cron schedule in UTC (e.g. `{minute: '30', hour: '0', day: '1'}`). */
  readonly cron?: CronOptionsWithTimezone;
  readonly description?: string;
  /**
   * Whether the schedule fires after deployment.
   * @default true
   */
  readonly enabled?: boolean;
  /**
   * A function invoked (Lambda on-success destination) after each run that succeeds,
   * with the run's event as `requestPayload`.
   * @default - none
   */
  readonly onSuccess?: IFunction;
}

/** How long a cron run may wait for its invocation (Lambda's limit is six hours). */
const CRON_MAX_EVENT_AGE = Duration.hours(6);

/**
 * EventBridge Scheduler schedules that invoke gpurent functions at a fixed rate, all
 * in one schedule group and through one invoke role.
 *
 * Each invocation carries an event shaped like EventBridge's `Scheduled Event`
 * (`ScheduledEvent` in `@types/aws-lambda`): `id` is the scheduler's execution id (an
 * idempotency key), `time` the scheduled time.
 *
 * A run that fails is not retried: the next tick is the retry, so runs never pile up
 * behind one another (`retryAttempts: 0` on the schedule target and on the function's
 * asynchronous invocation).
 */
export class GpurentSchedules extends Construct {
  public readonly group: ScheduleGroup;
  public readonly invokeRole: Role;
  public readonly schedules: Schedule[] = [];

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.group = new ScheduleGroup(this, 'Group');
    this.invokeRole = new Role(this, 'InvokeRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
      description: 'Lets EventBridge Scheduler invoke the scheduled gpurent functions',
    });
  }

  /** Invokes `fn` at a fixed rate (`every`) or on a cron schedule (`cron`). */
  public addFunctionSchedule(id: string, fn: IFunction, options: FunctionScheduleOptions): Schedule {
    if ((options.every === undefined) === (options.cron === undefined)) {
      throw new Error(`Schedule ${id}: give exactly one of 'every' and 'cron'.`);
    }
    if (options.every) {
      const minutes = options.every.toMinutes();
      if (!Number.isInteger(minutes) || minutes < 1) {
        throw new Error(`Schedule ${id}: 'every' must be a whole number of minutes, at least 1.`);
      }
    }
    // A rate's run is stale once the next one is due; a calendar run is still worth doing hours late.
    const maxEventAge = options.every ?? CRON_MAX_EVENT_AGE;
    const schedule = new Schedule(this, id, {
      schedule: options.every
        ? ScheduleExpression.rate(options.every)
        : ScheduleExpression.cron(options.cron ?? {}),
      scheduleGroup: this.group,
      description: options.description,
      enabled: options.enabled ?? true,
      target: new LambdaInvoke(fn, {
        role: this.invokeRole,
        input: ScheduleTargetInput.fromObject({
          version: '0',
          id: ContextAttribute.executionId,
          'detail-type': 'Scheduled Event',
          source: 'aws.scheduler',
          account: Aws.ACCOUNT_ID,
          time: ContextAttribute.scheduledTime,
          region: Aws.REGION,
          resources: [ContextAttribute.scheduleArn],
          detail: {},
        }),
        retryAttempts: 0,
        maxEventAge,
      }),
    });
    fn.configureAsyncInvoke({
      retryAttempts: 0,
      maxEventAge,
      onSuccess: options.onSuccess
        ? new LambdaDestination(options.onSuccess, { responseOnly: false })
        : undefined,
    });
    if (options.onSuccess && fn.role) {
      acknowledgeWildcardResource(
        fn.role,
        `${options.onSuccess.functionArn}:*`,
        `lambda:InvokeFunction of the on-success destination ${options.onSuccess.node.path} and its versions; CDK's destination grant adds <function arn>:*.`,
      );
    }

    // grantInvoke covers the function and its versions/aliases (`<arn>:*`).
    acknowledgeWildcardResource(
      this.invokeRole,
      `${fn.functionArn}:*`,
      `lambda:InvokeFunction on the versions and aliases of one scheduled function (${fn.node.path}); CDK's grantInvoke adds <function arn>:*.`,
    );
    this.schedules.push(schedule);
    return schedule;
  }
}
