import { dirname } from 'node:path';
import { type App, CfnOutput, Duration, Stack, type StackProps, Tags, Validations } from 'aws-cdk-lib';
import { Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
import { DEFAULT_DATA_DIR } from '../shared/adapters/reference-data';
import { AVAILABILITY_DIR, PRICES_FILE } from '../shared/adapters/spot-trace-files';
import { AUDIT_SCHEDULE } from '../shared/domain/audit/audit-month';
import {
  EC2_EVENTS_RULE,
  TABLES,
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
import {
  type BundledData,
  GpurentFunction,
  type GpurentLogLevel,
  LAMBDA_TASK_ROOT,
} from './constructs/gpurent-function';
import { LeaseExpiry } from './constructs/lease-expiry';
import { gpurentMetric, OperationsDashboard } from './constructs/operations-dashboard';
import { GpurentQueues } from './constructs/queues';
import { grantRemoteFleet } from './constructs/remote-fleet-access';
import { GpurentSchedules } from './constructs/schedules';
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
   * An existing VPC and the subnets to launch GPU instances into.
   * @default - a new VPC with public subnets and flow logs
   */
  readonly existingVpc?: GpuFleetProps['existingVpc'];

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
    readonly budgetEvaluator: GpurentFunction;
    readonly scalingEvaluator: GpurentFunction;
    readonly audit: GpurentFunction;
    readonly interruptionHandler: GpurentFunction;
  };

  constructor(scope: Construct, id: string, props: GpurentStackProps = {}) {
    super(scope, id, props);
    const logLevel = props.logLevel;

    this.data = new GpurentData(this, 'Data');
    this.queues = new GpurentQueues(this, 'Queues');
    this.events = new GpurentEvents(this, 'Events');
    this.alerts = new GpurentAlerts(this, 'Alerts', { operatorEmail: props.operatorEmail });
    this.fleet = new GpuFleet(this, 'Fleet', {
      gpuAmiId: props.gpuAmiId,
      availabilityZones: props.availabilityZones,
      existingVpc: props.existingVpc,
    });
    const leaseCommands = this.queues.queues.leaseCommands;
    // The audit's replay reads the spot traces from its own package.
    const spotData: BundledData = {
      sourceDir: props.spotDataDir ?? DEFAULT_DATA_DIR,
      folders: [AVAILABILITY_DIR, dirname(PRICES_FILE)],
      into: 'spot-data',
    };
    const spotDataEnvironment = { SPOT_DATA_DIR: `${LAMBDA_TASK_ROOT}/${spotData.into}` };
    // Every function that places leases or lists pools finds each GPU region's fleet by its tag.
    const placementEnvironment = {
      ...this.fleet.launchEnvironment,
      GPU_REGIONS: (props.gpuRegions ?? [this.region]).join(','),
    };

    // --- tenant API -------------------------------------------------------------
    const apiFunction = new GpurentFunction(this, 'ApiFunction', {
      handlerName: 'api',
      description: 'gpurent HTTP API: leases and usage for tenants',
      memorySize: 1024,
      timeout: Duration.seconds(10),
      logLevel,
      bundledData: spotData,
      environment: { ...spotDataEnvironment, ...placementEnvironment },
    })
      .bindTable(this.data.binding('leases'), 'readWrite')
      .bindTable(this.data.binding('usage'), 'read')
      .bindTable(this.data.binding('spend'), 'read')
      .bindTable(this.data.binding('budgets'), 'readWrite')
      .bindTable(this.data.binding('idempotency'), 'readWrite')
      .bindQueue(leaseCommands.binding, 'send')
      .bindEventBus(this.events.binding)
      .bindTable(this.data.binding('scalingGroups'), 'readWrite')
      // GET /v1/audit/{month}: the stored audit, else one built on the spot.
      .bindTable(this.data.binding('audits'), 'read');
    // GET /v1/leases/{id}/metrics reads the GPU telemetry.
    this.fleet.grantReadMetrics(apiFunction);
    this.api = new GpurentApi(this, 'Api', {
      handler: apiFunction,
      existingUserPoolId: props.existingUserPoolId,
    });
    // GET /v1/pools and the maxHourlyPrice check read the fleet and spot prices.
    this.fleet.grantDescribe(
      apiFunction,
      'ec2:DescribeSubnets',
      'ec2:DescribeLaunchTemplates',
      'ec2:DescribeSpotPriceHistory',
      'ec2:DescribeLaunchTemplateVersions',
    );
    // Registering an image version adds a launch template version for its AMI.
    this.fleet.grantCreateLaunchTemplateVersion(apiFunction);

    // --- lease worker: provision / release commands --------------------------------
    const leaseWorker = new GpurentFunction(this, 'LeaseWorkerFunction', {
      handlerName: 'lease-worker',
      description: 'gpurent lease worker: launches and terminates GPU instances for lease commands',
      // SQS visibility timeout (180 s) is six times this, as AWS recommends.
      timeout: Duration.seconds(30),
      logLevel,
      environment: placementEnvironment,
    })
      .bindTable(this.data.binding('leases'), 'readWrite')
      .bindTable(this.data.binding('usage'), 'readWrite')
      // Closing a bill adds its last charge to the spend counters.
      .bindTable(this.data.binding('spend'), 'readWrite')
      .bindTable(this.data.binding('idempotency'), 'readWrite')
      .bindEventBus(this.events.binding);
    leaseWorker.addEventSource(
      new SqsEventSource(leaseCommands.queue, { batchSize: 10, reportBatchItemFailures: true }),
    );
    // The shared control-plane wiring (shared/lambda/control-plane.ts) requires the queue URL
    // at cold start; the worker only consumes (event source above), so it gets no send right.
    leaseWorker.addEnvironment(leaseCommands.definition.envVar, leaseCommands.queue.queueUrl);
    this.fleet.grantLaunch(leaseWorker);
    this.fleet.grantTerminateManaged(leaseWorker);
    this.fleet.grantDescribe(
      leaseWorker,
      'ec2:DescribeInstances',
      'ec2:DescribeSpotPriceHistory',
      'ec2:DescribeSubnets',
      'ec2:DescribeLaunchTemplates',
    );

    // --- scheduled jobs -------------------------------------------------------------
    const metering = new GpurentFunction(this, 'MeteringFunction', {
      handlerName: 'metering',
      description:
        'gpurent metering: charges the seconds of every running instance since its last checkpoint',
      timeout: Duration.seconds(50),
      logLevel,
    })
      .bindTable(this.data.binding('leases'), 'readWrite')
      .bindTable(this.data.binding('usage'), 'readWrite')
      .bindTable(this.data.binding('spend'), 'readWrite')
      // Hands what does not fit one invocation to the metering work queue, which feeds it back.
      .bindQueue(this.queues.queues.meteringWork.binding, 'send');
    metering.addEventSource(
      new SqsEventSource(this.queues.queues.meteringWork.queue, {
        batchSize: 2,
        reportBatchItemFailures: true,
      }),
    );

    const reconciler = new GpurentFunction(this, 'ReconcilerFunction', {
      handlerName: 'reconciler',
      description:
        'gpurent reconciler: ends instances EC2 runs but no lease owns, closes bills of vanished ones, records spot prices',
      timeout: Duration.minutes(2),
      logLevel,
      // Required by the shared control-plane wiring; the reconciler never launches.
      environment: placementEnvironment,
    })
      .bindTable(this.data.binding('leases'), 'readWrite')
      .bindTable(this.data.binding('usage'), 'readWrite')
      // Adopting a stray of a running lease starts its bill; charges go through the ledger.
      .bindTable(this.data.binding('spend'), 'readWrite')
      // Re-sends provision / release commands of leases stuck in PENDING or RELEASING.
      .bindQueue(leaseCommands.binding, 'send')
      .bindEventBus(this.events.binding);
    // Spot prices: the reconciler records the price in force of the pools spot instances run in.
    this.fleet.grantDescribe(reconciler, 'ec2:DescribeInstances', 'ec2:DescribeSpotPriceHistory');
    this.fleet.grantTerminateManaged(reconciler);

    const budgetEvaluator = new GpurentFunction(this, 'BudgetEvaluatorFunction', {
      handlerName: 'budget-evaluator',
      description:
        'gpurent budgets: judges every budget on month-to-date spend and forecast, alerts once per threshold over SNS',
      timeout: Duration.minutes(2),
      logLevel,
    })
      .bindTable(this.data.binding('budgets'), 'readWrite')
      .bindTable(this.data.binding('spend'), 'read')
      // Reads open instances (run rates); stop-interruptible moves leases to RELEASING.
      .bindTable(this.data.binding('leases'), 'readWrite')
      // The shared store wiring names the usage table; the evaluator never reads rows.
      .bindTable(this.data.binding('usage'), 'read')
      .bindTopic(this.alerts.binding('budgetAlerts'))
      .bindQueue(leaseCommands.binding, 'send')
      .bindEventBus(this.events.binding);

    const scalingEvaluator = new GpurentFunction(this, 'ScalingEvaluatorFunction', {
      handlerName: 'scaling-evaluator',
      description: 'gpurent scaling evaluator: every scaling group against its GPU metrics, every minute',
      timeout: Duration.seconds(55),
      logLevel,
      environment: placementEnvironment,
    })
      .bindTable(this.data.binding('scalingGroups'), 'readWrite')
      .bindTable(this.data.binding('leases'), 'readWrite')
      // Members are leases: createLease holds them to the tenant's block-new-leases budgets.
      .bindTable(this.data.binding('budgets'), 'read')
      .bindTable(this.data.binding('spend'), 'read')
      // Required by the shared store wiring; members' usage is never read here.
      .bindTable(this.data.binding('usage'), 'read')
      .bindQueue(leaseCommands.binding, 'send')
      .bindEventBus(this.events.binding);
    this.fleet.grantReadMetrics(scalingEvaluator);
    // createLease places members like any lease: the fleets and their spot prices.
    this.fleet.grantDescribe(
      scalingEvaluator,
      'ec2:DescribeSubnets',
      'ec2:DescribeLaunchTemplates',
      'ec2:DescribeSpotPriceHistory',
    );
    const audit = new GpurentFunction(this, 'AuditFunction', {
      handlerName: 'audit',
      description:
        "gpurent monthly audit: on the 1st, last month's audit for every tenant, stored and announced once",
      memorySize: 1024,
      timeout: Duration.minutes(5),
      logLevel,
      bundledData: spotData,
      environment: spotDataEnvironment,
    })
      .bindTable(this.data.binding('leases'), 'read')
      // Rollups, never usage rows; the fleet's idle reserved time of the month (IDLE#<month>).
      .bindTable(this.data.binding('usage'), 'read')
      // Rollups, and the month-counters index query for the tenants charged in the month.
      .bindTable(this.data.binding('spend'), 'read')
      .bindTable(this.data.binding('audits'), 'readWrite')
      .bindTopic(this.alerts.binding('budgetAlerts'))
      .bindEventBus(this.events.binding);
    // Utilization by hour of day from the GPU telemetry.
    this.fleet.grantReadMetrics(audit);
    // --- EC2 instance events: spot interruptions, rebalance, state changes -------------
    const ec2Events = this.queues.queues.ec2Events;
    const interruptionHandler = new GpurentFunction(this, 'InterruptionHandlerFunction', {
      handlerName: 'interruption-handler',
      description:
        'gpurent interruption handler: spot warnings, rebalance and state-change events of GPU instances',
      timeout: Duration.seconds(30),
      logLevel,
      environment: placementEnvironment,
    })
      .bindTable(this.data.binding('leases'), 'readWrite')
      .bindTable(this.data.binding('usage'), 'readWrite')
      // Closing an interrupted instance's bill adds to the spend counters.
      .bindTable(this.data.binding('spend'), 'readWrite')
      // Queues the replacement of an interrupted instance.
      .bindQueue(leaseCommands.binding, 'send')
      .bindEventBus(this.events.binding);
    interruptionHandler.addEventSource(
      new SqsEventSource(ec2Events.queue, { batchSize: 10, reportBatchItemFailures: true }),
    );
    this.fleet.grantDescribe(interruptionHandler, 'ec2:DescribeInstances');
    // On the default bus, where EC2 puts its events (the GPU regions' fleet stacks forward theirs here).
    new Rule(this, EC2_EVENTS_RULE.id, {
      description: 'gpurent: EC2 spot interruption warnings, rebalance recommendations and state changes',
      eventPattern: {
        source: [...EC2_EVENTS_RULE.eventPattern.source],
        detailType: [...EC2_EVENTS_RULE.eventPattern['detail-type']],
      },
      targets: [new SqsQueue(ec2Events.queue)],
    });

    // --- the fleets of the other GPU regions (GpurentFleetStack), reached by their tags ---
    for (const region of (props.gpuRegions ?? []).filter((r) => r !== this.region)) {
      const fleet = {
        region,
        fleetName: this.fleet.fleetName,
        instanceRoleName: fleetInstanceRoleName(region),
      };
      grantRemoteFleet(leaseWorker, this, fleet, ['launch', 'terminate']);
      grantRemoteFleet(reconciler, this, fleet, ['terminate']);
      grantRemoteFleet(apiFunction, this, fleet, ['createLaunchTemplateVersion']);
    }

    this.schedules = new GpurentSchedules(this, 'Schedules');
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

    this.schedules.addFunctionSchedule('ScalingEvaluatorSchedule', scalingEvaluator, {
      every: Duration.minutes(1),
      description: 'gpurent scaling evaluator, every minute',
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
      budgetEvaluator,
      scalingEvaluator,
      audit,
      interruptionHandler,
    };

    // --- lease expiry: one-time schedules armed by the API, deleted when a lease ends ---
    this.leaseExpiry = new LeaseExpiry(this, 'LeaseExpiry', { commandsQueue: leaseCommands.queue });
    this.leaseExpiry.bind(apiFunction, 'arm');
    this.leaseExpiry.bind(leaseWorker, 'cancel');
    // Group members are created like any lease, with the tenant's default duration.
    this.leaseExpiry.bind(scalingEvaluator, 'arm');
    // The shared control-plane wiring reads the expiry settings; the reconciler ends no lease itself.
    this.leaseExpiry.bind(reconciler, 'cancel');
    this.leaseExpiry.bind(interruptionHandler, 'cancel');

    // --- alarms ---------------------------------------------------------------------
    for (const queue of this.queues.all) this.alerts.alarmOnDeadLetters(queue);
    for (const [name, fn] of Object.entries(this.functions)) this.alerts.alarmOnErrors(pascal(name), fn);
    for (const [name, fn] of Object.entries(this.functions)) this.alerts.alarmOnThrottles(pascal(name), fn);
    this.alerts.alarmOnMeteringLag(gpurentMetric('MeteringLag', 'Maximum'), METERING_LAG_ALARM_SECONDS);
    this.alerts.alarmOnOrphans(gpurentMetric('OrphansTerminated', 'Sum', Duration.minutes(5)));
    this.dashboard = new OperationsDashboard(this, 'Operations', {
      functions: this.functions,
      queues: this.queues.all,
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
