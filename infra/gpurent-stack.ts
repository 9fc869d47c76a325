import { dirname } from 'node:path';
import { type App, CfnOutput, Duration, Stack, type StackProps, Tags, Validations } from 'aws-cdk-lib';
import { Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
import { admissionWiring } from '../functions/admission/wiring';
import { apiWiring } from '../functions/api/wiring';
import { auditWiring } from '../functions/audit/wiring';
import { budgetEvaluatorWiring } from '../functions/budget-evaluator/wiring';
import { capacityRefreshWiring } from '../functions/capacity-refresh/wiring';
import { deadlineScheduleWiring } from '../functions/deadline-schedule/wiring';
import { interruptionHandlerWiring } from '../functions/interruption-handler/wiring';
import { leaseWorkerWiring } from '../functions/lease-worker/wiring';
import { meteringWiring } from '../functions/metering/wiring';
import { reconcilerWiring } from '../functions/reconciler/wiring';
import { scalingEvaluatorWiring } from '../functions/scaling-evaluator/wiring';
import { taskEventsWiring } from '../functions/task-events/wiring';
import { warmPoolFillerWiring } from '../functions/warm-pool-filler/wiring';
import { DEFAULT_DATA_DIR } from '../shared/adapters/reference-data';
import { AVAILABILITY_DIR, PRICES_FILE } from '../shared/adapters/spot-trace-files';
import { CAPACITY_REFRESH_MINUTES } from '../shared/domain/admission/fleet-capacity';
import { ADMISSION_SCHEDULE_MINUTES } from '../shared/domain/admission/queue-timeout';
import { AUDIT_SCHEDULE } from '../shared/domain/audit/audit-month';
import { DEADLINE_SCHEDULE_MINUTES } from '../shared/domain/deadlines/steering';
import type { Wiring } from '../shared/lambda/port-factory';
import { METRIC_NAMES } from '../shared/metric-names';
import {
  EC2_EVENTS_RULE,
  TABLES,
  TASK_EVENTS_RULE,
  type TableDefinition,
  type TableName,
  TOPICS,
  type TopicDefinition,
  type TopicName,
} from '../shared/resources';
import { GpurentAlerts } from './constructs/alerts';
import { GpurentApi } from './constructs/api';
import { GpurentData } from './constructs/data';
import { GpurentEvents } from './constructs/events';
import { GpuFleet, type GpuFleetProps } from './constructs/fleet';
import { bundledDataOf, grantWiring, type WiringTargets } from './constructs/function-wiring';
import {
  GpurentFunction,
  type GpurentFunctionProps,
  type GpurentLogLevel,
} from './constructs/gpurent-function';
import { LeaseExpiry } from './constructs/lease-expiry';
import { gpurentMetric, OperationsDashboard } from './constructs/operations-dashboard';
import { GpurentQueues } from './constructs/queues';
import { GpurentSchedules } from './constructs/schedules';
import { GpurentTasks } from './constructs/tasks';
import { InvalidContextError, readDeployContext } from './context';
import { fleetInstanceRoleName, GpurentFleetStack } from './fleet-stack';
import { parseGpuRegions } from './gpu-regions';

export interface GpurentStackProps extends StackProps {
  /**
   * A fixed AMI for the GPU instances.
   * @default - the latest AWS Deep Learning Base GPU AMI (Ubuntu 22.04), resolved at deploy time
   */
  readonly gpuAmiId?: string;

  /**
   * Availability zones for the GPU subnets.
   * @default - two zones of the stack's region
   */
  readonly availabilityZones?: string[];

  /**
   * E-mail address that receives operator alarms.
   * @default - none; subscribe to the OperatorAlertsTopic out of band
   */
  readonly operatorEmail?: string;

  /** @default 'INFO' */
  readonly logLevel?: GpurentLogLevel;

  /**
   * Folder holding the V100 spot traces the monthly audit replays against
   * (`spot-availability-aws-v100/`, `spot-prices-aws-v100/`); they are bundled into
   * the API and audit function packages.
   * @default - `../shared/data` beside the repository
   */
  readonly spotDataDir?: string;

  /**
   * An existing Cognito user pool (with the immutable `custom:tenant` attribute).
   * @default - a new user pool, retained on stack deletion
   */
  readonly existingUserPoolId?: string;
  /**
   * Concurrent executions reserved for the API function: its own share of the
   * account, which neither other functions nor a flood can take, and its ceiling
   * (past it API Gateway answers 503 rather than the account throttling every function).
   * The account must keep 100 unreserved. 0: no reservation (accounts with a low concurrency limit).
   * @default 50
   */
  readonly apiReservedConcurrency?: number;

  /**
   * An existing VPC and the subnets to launch GPU instances into.
   * @default - a new VPC with public subnets and flow logs
   */
  readonly existingVpc?: GpuFleetProps['existingVpc'];

  /**
   * S3 Object Lock compliance retention of every checkpoint version, in days
   * (`checkpointRetentionDays` context value). Set it when the bucket is
   * first created: S3 cannot turn Object Lock on for an existing bucket.
   * @default - no Object Lock
   */
  readonly checkpointRetentionDays?: number;

  /**
   * Secondary indexes not to create in this deploy (`holdBackIndexes`
   * context value): CloudFormation adds one global secondary index per table
   * per update, so an upgrade that adds two to a table holds one back once.
   * @default - every index
   */
  readonly holdBackIndexes?: readonly string[];

  /**
   * GPU regions, the stack's own first (`parseGpuRegions`); each other one has
   * its fleet in a GpurentFleetStack, which the functions reach by its tags.
   * @default - the stack's region alone
   */
  readonly gpuRegions?: readonly string[];
}

/**
 * The whole gpurent control plane in one stack: tables, queues, the domain event bus,
 * alert topics, the GPU fleet (VPC, launch template), the tenant HTTP API and the
 * functions behind it, the lease worker and the scheduled jobs.
 */
export class GpurentStack extends Stack {
  public readonly data: GpurentData;
  public readonly queues: GpurentQueues;
  public readonly events: GpurentEvents;
  public readonly alerts: GpurentAlerts;
  public readonly fleet: GpuFleet;
  public readonly api: GpurentApi;
  public readonly schedules: GpurentSchedules;
  public readonly leaseExpiry: LeaseExpiry;
  public readonly dashboard: OperationsDashboard;
  public readonly functions: {
    readonly api: GpurentFunction;
    readonly leaseWorker: GpurentFunction;
    readonly metering: GpurentFunction;
    readonly reconciler: GpurentFunction;
    readonly deadlineSchedule: GpurentFunction;
    readonly budgetEvaluator: GpurentFunction;
    readonly scalingEvaluator: GpurentFunction;
    readonly audit: GpurentFunction;
    readonly interruptionHandler: GpurentFunction;
    readonly taskEvents: GpurentFunction;
    readonly warmPoolFiller: GpurentFunction;
    readonly admission: GpurentFunction;
    readonly capacityRefresh: GpurentFunction;
  };
  public readonly tasks: GpurentTasks;

  constructor(scope: Construct, id: string, props: GpurentStackProps = {}) {
    super(scope, id, props);
    const logLevel = props.logLevel;

    this.data = new GpurentData(this, 'Data', { holdBackIndexes: props.holdBackIndexes });
    this.queues = new GpurentQueues(this, 'Queues');
    this.events = new GpurentEvents(this, 'Events');
    this.alerts = new GpurentAlerts(this, 'Alerts', { operatorEmail: props.operatorEmail });
    this.fleet = new GpuFleet(this, 'Fleet', {
      gpuAmiId: props.gpuAmiId,
      availabilityZones: props.availabilityZones,
      existingVpc: props.existingVpc,
    });
    const leaseCommands = this.queues.queues.leaseCommands;
    // Lease expiry: one-time schedules armed where leases are created, deleted when a lease ends.
    this.leaseExpiry = new LeaseExpiry(this, 'LeaseExpiry', { commandsQueue: leaseCommands.queue });
    this.tasks = new GpurentTasks(this, 'Tasks', {
      fleetName: this.fleet.fleetName,
      checkpointRetentionDays: props.checkpointRetentionDays,
    });
    const gpuRegions = props.gpuRegions ?? [this.region];
    // Each function is granted, and given the variables of, exactly what its wiring's ports reach.
    const targets: WiringTargets = {
      data: this.data,
      queues: this.queues,
      events: this.events,
      alerts: this.alerts,
      fleet: this.fleet,
      leaseExpiry: this.leaseExpiry,
      tasks: this.tasks,
      gpuRegions,
      remoteFleets: gpuRegions
        .filter((region) => region !== this.region)
        .map((region) => ({
          region,
          fleetName: this.fleet.fleetName,
          instanceRoleName: fleetInstanceRoleName(region),
        })),
      // The audit's replay reads the spot traces from its own package.
      spotData: {
        sourceDir: props.spotDataDir ?? DEFAULT_DATA_DIR,
        folders: [AVAILABILITY_DIR, dirname(PRICES_FILE)],
        into: 'spot-data',
      },
    };
    const wiredFunction = (id: string, wiring: Wiring, functionProps: GpurentFunctionProps) => {
      const fn = new GpurentFunction(this, id, {
        logLevel,
        bundledData: bundledDataOf(wiring, targets.spotData),
        ...functionProps,
      });
      grantWiring(fn, wiring, targets);
      return fn;
    };

    // --- tenant API -------------------------------------------------------------
    const apiFunction = wiredFunction('ApiFunction', apiWiring, {
      handlerName: 'api',
      description: 'gpurent HTTP API: leases and usage for tenants',
      memorySize: 1024,
      timeout: Duration.seconds(10),
      reservedConcurrentExecutions:
        props.apiReservedConcurrency === 0 ? undefined : (props.apiReservedConcurrency ?? 50),
    });
    this.api = new GpurentApi(this, 'Api', {
      handler: apiFunction,
      existingUserPoolId: props.existingUserPoolId,
    });

    // --- lease worker: provision / release commands --------------------------------
    const leaseWorker = wiredFunction('LeaseWorkerFunction', leaseWorkerWiring, {
      handlerName: 'lease-worker',
      description: 'gpurent lease worker: launches and terminates GPU instances for lease commands',
      // SQS visibility timeout (180 s) is six times this, as AWS recommends.
      timeout: Duration.seconds(30),
    });
    leaseWorker.addEventSource(
      new SqsEventSource(leaseCommands.queue, { batchSize: 10, reportBatchItemFailures: true }),
    );

    // --- scheduled jobs -------------------------------------------------------------
    const metering = wiredFunction('MeteringFunction', meteringWiring, {
      handlerName: 'metering',
      description:
        'gpurent metering: charges the seconds of every running instance since its last checkpoint',
      timeout: Duration.seconds(50),
    });
    // What does not fit one invocation goes to the metering work queue, which feeds it back.
    metering.addEventSource(
      new SqsEventSource(this.queues.queues.meteringWork.queue, {
        batchSize: 2,
        reportBatchItemFailures: true,
      }),
    );

    const reconciler = wiredFunction('ReconcilerFunction', reconcilerWiring, {
      handlerName: 'reconciler',
      description:
        'gpurent reconciler: ends instances EC2 runs but no lease owns, closes bills of vanished ones, records spot prices',
      timeout: Duration.minutes(2),
    });

    const deadlineSchedule = wiredFunction('DeadlineScheduleFunction', deadlineScheduleWiring, {
      handlerName: 'deadline-schedule',
      description:
        'gpurent deadline schedule: asks the lease worker to decide again for every open job with a deadline',
      timeout: Duration.seconds(30),
    });

    const budgetEvaluator = wiredFunction('BudgetEvaluatorFunction', budgetEvaluatorWiring, {
      handlerName: 'budget-evaluator',
      description:
        'gpurent budgets: judges every budget on month-to-date spend and forecast, alerts once per threshold over SNS',
      timeout: Duration.minutes(2),
    });

    const scalingEvaluator = wiredFunction('ScalingEvaluatorFunction', scalingEvaluatorWiring, {
      handlerName: 'scaling-evaluator',
      description: 'gpurent scaling evaluator: every scaling group against its GPU metrics, every minute',
      timeout: Duration.seconds(55),
    });
    const admission = wiredFunction('AdmissionFunction', admissionWiring, {
      handlerName: 'admission',
      description:
        'gpurent admission: every minute, one pass over the admission queue; fails leases past their maxWaitMinutes',
      timeout: Duration.seconds(55),
    });
    // Its own function: the one that reads Service Quotas, on its own cadence, outside the pass's hot path.
    const capacityRefresh = wiredFunction('CapacityRefreshFunction', capacityRefreshWiring, {
      handlerName: 'capacity-refresh',
      description:
        "gpurent capacity refresh: admission's pool limits from the account's EC2 vCPU quotas and the reserved commitments",
      timeout: Duration.seconds(30),
    });
    const audit = wiredFunction('AuditFunction', auditWiring, {
      handlerName: 'audit',
      description:
        "gpurent monthly audit: on the 1st, last month's audit for every tenant, stored and announced once",
      memorySize: 1024,
      timeout: Duration.minutes(5),
    });
    // --- EC2 instance events: spot interruptions, rebalance, state changes -------------
    const ec2Events = this.queues.queues.ec2Events;
    const interruptionHandler = wiredFunction('InterruptionHandlerFunction', interruptionHandlerWiring, {
      handlerName: 'interruption-handler',
      description:
        'gpurent interruption handler: spot warnings, rebalance and state-change events of GPU instances',
      timeout: Duration.seconds(30),
    });
    interruptionHandler.addEventSource(
      new SqsEventSource(ec2Events.queue, { batchSize: 10, reportBatchItemFailures: true }),
    );
    // On the default bus, where EC2 puts its events (the GPU regions' fleet stacks forward theirs here).
    new Rule(this, EC2_EVENTS_RULE.id, {
      description: 'gpurent: EC2 spot interruption warnings, rebalance recommendations and state changes',
      eventPattern: {
        source: [...EC2_EVENTS_RULE.eventPattern.source],
        detailType: [...EC2_EVENTS_RULE.eventPattern['detail-type']],
      },
      targets: [new SqsQueue(ec2Events.queue)],
    });

    // --- tasks: SSM's command status changes ---------------------------------------------
    const taskEventsQueue = this.queues.queues.taskEvents;
    const taskEvents = wiredFunction('TaskEventsFunction', taskEventsWiring, {
      handlerName: 'task-events',
      description: "gpurent task events: a task's start and end from SSM's command status changes",
      timeout: Duration.seconds(30),
    });
    taskEvents.addEventSource(
      new SqsEventSource(taskEventsQueue.queue, { batchSize: 10, reportBatchItemFailures: true }),
    );
    new Rule(this, TASK_EVENTS_RULE.id, {
      description: "gpurent: SSM command invocation status changes (tasks' starts and ends)",
      eventPattern: {
        source: [...TASK_EVENTS_RULE.eventPattern.source],
        detailType: [...TASK_EVENTS_RULE.eventPattern['detail-type']],
      },
      targets: [new SqsQueue(taskEventsQueue.queue)],
    });
    // --- warm pools: stopped machines kept ready, topped up on each use and every minute ---
    const warmPoolFiller = wiredFunction('WarmPoolFillerFunction', warmPoolFillerWiring, {
      handlerName: 'warm-pool-filler',
      description:
        'gpurent warm-pool filler: keeps each warm pool at size with stopped machines of its current image',
      timeout: Duration.seconds(60),
    });
    warmPoolFiller.addEventSource(
      new SqsEventSource(this.queues.queues.warmPoolFill.queue, { batchSize: 10 }),
    );

    this.schedules = new GpurentSchedules(this, 'Schedules');
    this.schedules.addFunctionSchedule('WarmPoolFillerSchedule', warmPoolFiller, {
      every: Duration.minutes(1),
      description: 'gpurent warm-pool filler, every minute (also after each use)',
    });
    this.schedules.addFunctionSchedule('MeteringSchedule', metering, {
      every: Duration.minutes(1),
      description: 'gpurent metering, every minute',
      // Budgets are judged right after each metering run, on fresh counters.
      onSuccess: budgetEvaluator,
    });
    this.schedules.addFunctionSchedule('BudgetEvaluatorSchedule', budgetEvaluator, {
      every: Duration.minutes(5),
      description: 'gpurent budget evaluation, every five minutes (also runs after each metering run)',
    });
    this.schedules.addFunctionSchedule('ReconcilerSchedule', reconciler, {
      every: Duration.minutes(5),
      description: 'gpurent reconciler, every five minutes',
    });

    this.schedules.addFunctionSchedule('DeadlineSchedule', deadlineSchedule, {
      every: Duration.minutes(DEADLINE_SCHEDULE_MINUTES),
      description: `gpurent deadline decisions, every ${DEADLINE_SCHEDULE_MINUTES} minutes (the policy's tick)`,
    });

    this.schedules.addFunctionSchedule('ScalingEvaluatorSchedule', scalingEvaluator, {
      every: Duration.minutes(1),
      description: 'gpurent scaling evaluator, every minute',
    });

    this.schedules.addFunctionSchedule('AdmissionSchedule', admission, {
      every: Duration.minutes(ADMISSION_SCHEDULE_MINUTES),
      description: 'gpurent admission pass, every minute (also after each release, failure and quota change)',
    });

    this.schedules.addFunctionSchedule('CapacityRefreshSchedule', capacityRefresh, {
      every: Duration.minutes(CAPACITY_REFRESH_MINUTES),
      description: `gpurent capacity refresh (vCPU quotas, reserved slots), every ${CAPACITY_REFRESH_MINUTES} minutes`,
    });

    this.schedules.addFunctionSchedule('AuditSchedule', audit, {
      cron: {
        minute: String(AUDIT_SCHEDULE.minute),
        hour: String(AUDIT_SCHEDULE.hour),
        day: String(AUDIT_SCHEDULE.day),
      },
      description: 'gpurent monthly audit of last month, at 00:30 UTC on the 1st',
    });

    this.functions = {
      api: apiFunction,
      leaseWorker,
      metering,
      reconciler,
      deadlineSchedule,
      budgetEvaluator,
      scalingEvaluator,
      audit,
      interruptionHandler,
      taskEvents,
      warmPoolFiller,
      admission,
      capacityRefresh,
    };

    // --- alarms ---------------------------------------------------------------------
    for (const queue of this.queues.all) this.alerts.alarmOnDeadLetters(queue);
    for (const [name, fn] of Object.entries(this.functions)) this.alerts.alarmOnErrors(pascal(name), fn);
    for (const [name, fn] of Object.entries(this.functions)) this.alerts.alarmOnThrottles(pascal(name), fn);
    this.alerts.alarmOnMeteringLag(
      gpurentMetric(METRIC_NAMES.meteringLag, 'Maximum'),
      METERING_LAG_ALARM_SECONDS,
    );
    this.alerts.alarmOnOrphans(gpurentMetric(METRIC_NAMES.orphansTerminated, 'Sum', Duration.minutes(5)));
    this.dashboard = new OperationsDashboard(this, 'Operations', {
      functions: this.functions,
      queues: this.queues.all,
      api: this.api.httpApi,
      alarms: this.alerts.alarms,
    });

    // --- outputs --------------------------------------------------------------------
    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL of the tenant API' });
    new CfnOutput(this, 'UserPoolId', { value: this.api.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.api.userPoolClient.userPoolClientId });
    new CfnOutput(this, 'EventBusName', { value: this.events.eventBusName });
    for (const [name, definition] of Object.entries(TABLES) as [TableName, TableDefinition][]) {
      new CfnOutput(this, `${definition.id}Name`, {
        value: this.data.tables[name].tableName,
        description: `Value for ${definition.envVar}`,
      });
    }
    for (const queue of this.queues.all) {
      new CfnOutput(this, `${queue.definition.id}Url`, {
        value: queue.queue.queueUrl,
        description: `Value for ${queue.definition.envVar}`,
      });
    }
    for (const [name, definition] of Object.entries(TOPICS) as [TopicName, TopicDefinition][]) {
      new CfnOutput(this, `${definition.id}Arn`, {
        value: this.alerts.topics[name].topicArn,
        description: `Value for ${definition.envVar}`,
      });
    }
    new CfnOutput(this, 'LaunchTemplateId', { value: this.fleet.launchTemplateId });
  }
}

/** Metering runs every minute and takes seconds: two minutes behind means ticks are failing or piling up. */
const METERING_LAG_ALARM_SECONDS = 120;

function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** Stack name (and construct id) of the gpurent stack. */
export const GPURENT_STACK_NAME = 'Gpurent';

/** Stack name of the fleet of one more GPU region. */
export const fleetStackName = (region: string) => `GpurentFleet-${region}`;

/** Default region when neither the `region` context value nor CDK_DEFAULT_REGION says otherwise. */
export const DEFAULT_REGION = 'us-east-1';

/**
 * Adds the gpurent stack to `app`, configured from context values, and registers the
 * cdk-nag AwsSolutions checks on the app. Used by `infra/app.ts` and by the infra tests,
 * so both synthesize exactly the same thing.
 *
 * Context values (`-c key=value` or cdk.json):
 * - `region`: target region (default: CDK_DEFAULT_REGION, else us-east-1). The account
 *   is never looked up: synth works offline and without credentials.
 * - `gpuAmiId`: pin the GPU AMI (default: latest Deep Learning Base GPU AMI via SSM at deploy).
 * - `availabilityZones`: comma-separated zones for the GPU subnets.
 * - `operatorEmail`: subscribe an e-mail address to operator alarms.
 * - `logLevel`: DEBUG | INFO | WARN | ERROR for all functions.
 * - `spotDataDir`: folder with the V100 spot traces bundled for the audit (default ../shared/data).
 * - `gpuRegions`: comma-separated GPU regions (validated: AWS region names the
 *   catalog sells GPUs in); each one besides the home region gets a
 *   `GpurentFleet-<region>` stack.
 * - `userPoolId`: an existing user pool instead of a new one.
 * - `vpcId` + `vpcSubnets` (`subnet-id:zone,…`): an existing VPC instead of a new one.
 * All are validated together by `infra/context.ts`; a bad value fails synth naming it.
 */
export function addGpurentStack(app: App): GpurentStack {
  const context = readDeployContext((key) => app.node.tryGetContext(key));
  const region = context.region ?? process.env.CDK_DEFAULT_REGION ?? DEFAULT_REGION;
  let gpuRegions: string[];
  try {
    gpuRegions = parseGpuRegions(context.gpuRegions?.join(','), region);
  } catch (error) {
    const reason = (error as Error).message.replace(/^Context gpuRegions: /, '');
    throw new InvalidContextError([`context value "gpuRegions": ${reason}`]);
  }

  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));

  const stack = new GpurentStack(app, GPURENT_STACK_NAME, {
    description: 'gpurent: serverless control plane that rents GPU capacity on AWS',
    env: { region },
    gpuRegions,
    gpuAmiId: context.gpuAmiId,
    availabilityZones: context.availabilityZones,
    operatorEmail: context.operatorEmail,
    logLevel: context.logLevel,
    existingUserPoolId: context.userPoolId,
    existingVpc:
      context.vpcId && context.vpcSubnets
        ? {
            vpcId: context.vpcId,
            subnets: context.vpcSubnets.map((pair) => {
              const [subnetId = '', availabilityZone = ''] = pair.split(':');
              return { subnetId, availabilityZone };
            }),
          }
        : undefined,
    spotDataDir: context.spotDataDir,
    checkpointRetentionDays: context.checkpointRetentionDays,
    holdBackIndexes: context.holdBackIndexes,
  });
  Tags.of(stack).add('project', 'gpurent');
  for (const fleetRegion of gpuRegions.slice(1)) {
    const fleetStack = new GpurentFleetStack(app, fleetStackName(fleetRegion), {
      description: `gpurent: GPU fleet in ${fleetRegion} (control plane in ${region})`,
      env: { region: fleetRegion },
      homeRegion: region,
      fleetName: stack.fleet.fleetName,
    });
    Tags.of(fleetStack).add('project', 'gpurent');
  }
  return stack;
}
