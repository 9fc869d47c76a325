import { type App, CfnOutput, Duration, Stack, type StackProps, Tags, Validations } from 'aws-cdk-lib';
import { Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
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
import { GpuFleet } from './constructs/fleet';
import { GpurentFunction, type GpurentLogLevel } from './constructs/gpurent-function';
import { GpurentQueues } from './constructs/queues';
import { grantRemoteFleet } from './constructs/remote-fleet-access';
import { GpurentSchedules } from './constructs/schedules';
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
  public readonly functions: {
    readonly api: GpurentFunction;
    readonly leaseWorker: GpurentFunction;
    readonly metering: GpurentFunction;
    readonly reconciler: GpurentFunction;
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
    });
    const leaseCommands = this.queues.queues.leaseCommands;
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
      environment: placementEnvironment,
    })
      .bindTable(this.data.binding('leases'), 'readWrite')
      .bindTable(this.data.binding('usage'), 'read')
      .bindTable(this.data.binding('idempotency'), 'readWrite')
      .bindQueue(leaseCommands.binding, 'send')
      .bindEventBus(this.events.binding);
    this.api = new GpurentApi(this, 'Api', { handler: apiFunction });
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
      .bindTable(this.data.binding('usage'), 'readWrite');

    const reconciler = new GpurentFunction(this, 'ReconcilerFunction', {
      handlerName: 'reconciler',
      description: 'gpurent reconciler: ends instances EC2 runs but no lease owns',
      timeout: Duration.minutes(2),
      logLevel,
      // Required by the shared control-plane wiring; the reconciler never launches.
      environment: placementEnvironment,
    })
      .bindTable(this.data.binding('leases'), 'readWrite')
      .bindTable(this.data.binding('usage'), 'readWrite')
      // Re-sends provision / release commands of leases stuck in PENDING or RELEASING.
      .bindQueue(leaseCommands.binding, 'send')
      .bindEventBus(this.events.binding);
    this.fleet.grantDescribe(reconciler, 'ec2:DescribeInstances');
    this.fleet.grantTerminateManaged(reconciler);

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
    });
    this.schedules.addFunctionSchedule('ReconcilerSchedule', reconciler, {
      every: Duration.minutes(5),
      description: 'gpurent reconciler, every five minutes',
    });

    this.functions = { api: apiFunction, leaseWorker, metering, reconciler, interruptionHandler };

    // --- alarms ---------------------------------------------------------------------
    for (const queue of this.queues.all) this.alerts.alarmOnDeadLetters(queue);
    for (const [name, fn] of Object.entries(this.functions)) this.alerts.alarmOnErrors(pascal(name), fn);

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
 * - `gpuRegions`: comma-separated GPU regions (validated: AWS region names the
 *   catalog sells GPUs in); each one besides the home region gets a
 *   `GpurentFleet-<region>` stack.
 */
export function addGpurentStack(app: App): GpurentStack {
  const context = (key: string): string | undefined => {
    const value: unknown = app.node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return undefined;
    return Array.isArray(value) ? value.join(',') : String(value);
  };
  const logLevel = context('logLevel');
  if (logLevel !== undefined && !['DEBUG', 'INFO', 'WARN', 'ERROR'].includes(logLevel)) {
    throw new Error(`Context logLevel must be DEBUG, INFO, WARN or ERROR (got '${logLevel}').`);
  }

  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));

  const region = context('region') ?? process.env.CDK_DEFAULT_REGION ?? DEFAULT_REGION;
  const gpuRegions = parseGpuRegions(context('gpuRegions'), region);
  const stack = new GpurentStack(app, GPURENT_STACK_NAME, {
    description: 'gpurent: serverless control plane that rents GPU capacity on AWS',
    env: { region },
    gpuRegions,
    gpuAmiId: context('gpuAmiId'),
    availabilityZones: context('availabilityZones')
      ?.split(',')
      .map((zone) => zone.trim())
      .filter(Boolean),
    operatorEmail: context('operatorEmail'),
    logLevel: logLevel as GpurentLogLevel | undefined,
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
