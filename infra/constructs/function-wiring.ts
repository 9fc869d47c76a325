import { Aws } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { EC2_SERVICE_CODE, VCPU_QUOTA_CODES } from '../../shared/adapters/service-quotas';
import type { Ec2Capability, Reach, TableAccess, Wiring } from '../../shared/lambda/port-factory';
import { wiringReaches } from '../../shared/lambda/port-factory';
import type { QueueName, TableName, TopicName } from '../../shared/resources';
import type { GpurentAlerts } from './alerts';
import type { GpurentData } from './data';
import type { GpurentEvents } from './events';
import type { GpuFleet } from './fleet';
import type { BundledData, GpurentFunction } from './gpurent-function';
import { LAMBDA_TASK_ROOT } from './gpurent-function';
import type { LeaseExpiry } from './lease-expiry';
import type { GpurentQueues } from './queues';
import { grantRemoteFleet, type RemoteFleetRight } from './remote-fleet-access';
import type { GpurentTasks } from './tasks';

/** What the functions' ports reach, built by the stack. */
export interface WiringTargets {
  readonly data: GpurentData;
  readonly queues: GpurentQueues;
  readonly events: GpurentEvents;
  readonly alerts: GpurentAlerts;
  readonly fleet: GpuFleet;
  readonly leaseExpiry: LeaseExpiry;
  readonly tasks: GpurentTasks;
  /** GPU regions, home region first. */
  readonly gpuRegions: readonly string[];
  /** The other GPU regions' fleets, reached by their tags. */
  readonly remoteFleets: readonly { region: string; fleetName: string; instanceRoleName: string }[];
  /** The spot traces bundled into functions whose ports read them. */
  readonly spotData: BundledData;
}

/** Read-only EC2 calls of each capability (describe actions take no resource-level permissions). */
const DESCRIBES: Record<Ec2Capability, readonly string[]> = {
  fleet: ['ec2:DescribeSubnets', 'ec2:DescribeLaunchTemplates'],
  spotPrices: ['ec2:DescribeSpotPriceHistory'],
  instances: ['ec2:DescribeInstances'],
  imageVersions: ['ec2:DescribeLaunchTemplateVersions'],
  launch: [],
  terminate: [],
  warmStop: [],
  warmStart: [],
};

const REMOTE_RIGHTS: Partial<Record<Ec2Capability, RemoteFleetRight>> = {
  launch: 'launch',
  terminate: 'terminate',
  imageVersions: 'createLaunchTemplateVersion',
  warmStop: 'warmStop',
  warmStart: 'warmStart',
};

/** The package data of a function whose ports read the spot traces, else none. */
export function bundledDataOf(wiring: Wiring, spotData: BundledData): BundledData | undefined {
  return wiringReaches(wiring).some((reach) => reach.kind === 'spotTraces') ? spotData : undefined;
}

/**
 * Grants `fn` exactly what its wiring's ports reach, and sets the variables
 * they read: tables (read, or read/write when any port writes), the queues it
 * sends to, the dead-letter queues it drains, topics, the bus, EC2 by capability in every GPU region, lease
 * expiry (arm or cancel), GPU metrics, the task output group, the lease
 * session role, the checkpoint role, listing the checkpoint bucket, the
 * bundled spot traces, the EC2 vCPU quotas of GPU instances.
 */
export function grantWiring(fn: GpurentFunction, wiring: Wiring, targets: WiringTargets): void {
  const reaches = wiringReaches(wiring);
  const ofKind = <K extends Reach['kind']>(kind: K) =>
    reaches.filter((reach): reach is Extract<Reach, { kind: K }> => reach.kind === kind);

  grantTables(fn, ofKind('table'), targets.data);
  for (const queue of new Set<QueueName>(ofKind('queue').map((reach) => reach.queue))) {
    fn.bindQueue(targets.queues.queues[queue].binding, 'send');
  }
  for (const queue of new Set<QueueName>(ofKind('deadLetters').map((reach) => reach.queue))) {
    fn.bindDeadLetters(targets.queues.queues[queue]);
  }
  for (const topic of new Set<TopicName>(ofKind('topic').map((reach) => reach.topic))) {
    fn.bindTopic(targets.alerts.binding(topic));
  }
  if (ofKind('eventBus').length > 0) fn.bindEventBus(targets.events.binding);
  if (ofKind('gpuRegions').length > 0) fn.addEnvironment('GPU_REGIONS', targets.gpuRegions.join(','));
  const capabilities = new Set(ofKind('ec2').flatMap((reach) => reach.capabilities));
  if (capabilities.size > 0) grantFleet(fn, capabilities, targets);
  const expiry = ofKind('leaseExpiry');
  if (expiry.length > 0) {
    targets.leaseExpiry.bind(fn, expiry.some((reach) => reach.access === 'arm') ? 'arm' : 'cancel');
  }
  if (ofKind('gpuMetrics').length > 0) targets.fleet.grantReadMetrics(fn);
  if (ofKind('tasks').length > 0) targets.tasks.bindRunner(fn);
  if (ofKind('logGroup').length > 0) targets.tasks.grantReadTaskOutput(fn);
  if (ofKind('sessionRole').length > 0) targets.tasks.grantAssumeSessionRole(fn);
  if (ofKind('leaseMachineRole').length > 0) targets.tasks.grantAssumeLeaseMachineRole(fn);
  if (ofKind('checkpointBucket').length > 0) targets.tasks.grantListCheckpoints(fn);
  if (ofKind('spotTraces').length > 0) {
    fn.addEnvironment('SPOT_DATA_DIR', `${LAMBDA_TASK_ROOT}/${targets.spotData.into}`);
  }
  if (ofKind('serviceQuotas').length > 0) grantReadVcpuQuotas(fn, targets.gpuRegions);
}

/** GetServiceQuota on the four GPU vCPU quotas of each GPU region, by their ARNs (no wildcard). */
function grantReadVcpuQuotas(fn: GpurentFunction, regions: readonly string[]): void {
  const codes = Object.values(VCPU_QUOTA_CODES).flatMap((byMarket) => Object.values(byMarket));
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['servicequotas:GetServiceQuota'],
      resources: regions.flatMap((region) =>
        codes.map(
          (code) =>
            `arn:${Aws.PARTITION}:servicequotas:${region}:${Aws.ACCOUNT_ID}:${EC2_SERVICE_CODE}/${code}`,
        ),
      ),
    }),
  );
}

/** One grant per table, read/write when any of the function's ports writes it. */
function grantTables(
  fn: GpurentFunction,
  reaches: readonly { table: TableName; access: TableAccess }[],
  data: GpurentData,
): void {
  const access = new Map<TableName, TableAccess>();
  for (const reach of reaches) {
    access.set(reach.table, access.get(reach.table) === 'readWrite' ? 'readWrite' : reach.access);
  }
  for (const [table, mode] of access) fn.bindTable(data.binding(table), mode);
}

/** EC2 by capability, in the home fleet (by its ids) and the other GPU regions' fleets (by their tags). */
function grantFleet(fn: GpurentFunction, capabilities: ReadonlySet<Ec2Capability>, targets: WiringTargets) {
  const { fleet } = targets;
  for (const [name, value] of Object.entries(fleet.launchEnvironment)) fn.addEnvironment(name, value);
  const describes = [...capabilities].flatMap((capability) => DESCRIBES[capability]);
  if (describes.length > 0) fleet.grantDescribe(fn, ...describes);
  if (capabilities.has('launch')) fleet.grantLaunch(fn);
  if (capabilities.has('terminate')) fleet.grantTerminateManaged(fn);
  if (capabilities.has('warmStop')) fleet.grantManaged(fn, ['ec2:StopInstances']);
  if (capabilities.has('warmStart'))
    fleet.grantManaged(fn, ['ec2:StartInstances', 'ec2:CreateTags', 'ec2:DeleteTags']);
  if (capabilities.has('imageVersions')) fleet.grantCreateLaunchTemplateVersion(fn);
  const rights = [...capabilities].flatMap((capability) => REMOTE_RIGHTS[capability] ?? []);
  if (rights.length > 0) for (const remote of targets.remoteFleets) grantRemoteFleet(fn, fn, remote, rights);
}
