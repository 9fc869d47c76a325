import {
  CloudWatchLogsClient,
  CreateLogGroupCommand,
  PutRetentionPolicyCommand,
} from '@aws-sdk/client-cloudwatch-logs';
import { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import {
  CreateLaunchTemplateCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  DescribeAvailabilityZonesCommand,
  DescribeImagesCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import {
  CreateEventBusCommand,
  EventBridgeClient,
  PutRuleCommand,
  PutTargetsCommand,
} from '@aws-sdk/client-eventbridge';
import { CreateBucketCommand, PutPublicAccessBlockCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateScheduleGroupCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { CreateTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { FLEET_TAG, IMDS_HOP_LIMIT, ROOT_VOLUME_GIB } from '../shared/ports/compute';
import {
  BUCKETS,
  EC2_EVENTS_RULE,
  EVENT_BUS,
  LEASE_EXPIRY,
  LEASE_MACHINE_ROLE,
  LOG_GROUPS,
  QUEUES,
  type QueueDefinition,
  SESSION_ROLE,
  TABLES,
  TASK_EVENTS_RULE,
  type TableDefinition,
  TOPICS,
} from '../shared/resources';
import type { EmulatorEndpoints } from './emulators';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

function clientConfig(endpoint: string, region: string) {
  return { endpoint, region, credentials };
}

/** One table of `TABLES`; also for tests and benchmarks that want a fresh table of one kind per run. */
export async function createTable(
  client: DynamoDBClient,
  name: string,
  table: TableDefinition,
): Promise<void> {
  const keys = new Set<string>([table.partitionKey]);
  if (table.sortKey) keys.add(table.sortKey);
  for (const index of table.indexes) {
    keys.add(index.partitionKey);
    if (index.sortKey) keys.add(index.sortKey);
  }
  const keySchema = (partitionKey: string, sortKey?: string) => [
    { AttributeName: partitionKey, KeyType: 'HASH' as const },
    ...(sortKey ? [{ AttributeName: sortKey, KeyType: 'RANGE' as const }] : []),
  ];
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...keys].map((key) => ({ AttributeName: key, AttributeType: 'S' })),
      KeySchema: keySchema(table.partitionKey, table.sortKey),
      GlobalSecondaryIndexes:
        table.indexes.length === 0
          ? undefined
          : table.indexes.map((index) => ({
              IndexName: index.name,
              KeySchema: keySchema(index.partitionKey, index.sortKey),
              Projection: { ProjectionType: index.projection ?? 'ALL' },
            })),
    }),
  );
  if (table.timeToLiveAttribute) {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: name,
        TimeToLiveSpecification: { AttributeName: table.timeToLiveAttribute, Enabled: true },
      }),
    );
  }
}

async function createQueueWithDeadLetters(
  client: SQSClient,
  name: string,
  queue: QueueDefinition,
): Promise<{ url: string; deadLetterUrl: string }> {
  const dlq = await client.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const dlqArn = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
  );
  const created = await client.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: {
        VisibilityTimeout: String(queue.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: dlqArn.Attributes?.QueueArn,
          maxReceiveCount: queue.maxReceiveCount,
        }),
      },
    }),
  );
  return { url: created.QueueUrl ?? '', deadLetterUrl: dlq.QueueUrl ?? '' };
}

/** moto's fixed account id, in the ARNs its rules deliver to. */
const MOTO_ACCOUNT = '123456789012';

/**
 * The EC2 events rule of every GPU region, as the CDK stacks build it: on the
 * home region's default bus it targets the queue; on another region's default
 * bus it forwards to the home region's default bus (EventBridge delivers to
 * SQS only within a region).
 */
async function createEc2EventRules(
  endpoints: EmulatorEndpoints,
  home: string,
  prefix: string,
  queueUrl: string,
) {
  const queueName = queueUrl.split('/').pop() ?? '';
  for (const region of LOCAL_GPU_REGIONS) {
    const events = new EventBridgeClient(clientConfig(endpoints.events, region));
    const name = `${prefix}-${EC2_EVENTS_RULE.id}`;
    await events.send(
      new PutRuleCommand({ Name: name, EventPattern: JSON.stringify(EC2_EVENTS_RULE.eventPattern) }),
    );
    const arn =
      region === home
        ? `arn:aws:sqs:${home}:${MOTO_ACCOUNT}:${queueName}`
        : `arn:aws:events:${home}:${MOTO_ACCOUNT}:event-bus/default`;
    await events.send(new PutTargetsCommand({ Rule: name, Targets: [{ Id: 'ec2-events', Arn: arn }] }));
    events.destroy();
  }
}

/**
 * The rule that carries SSM's command status changes to the taskEvents queue,
 * on the home region's default bus (where the local SSM agent puts them).
 */
async function createTaskEventsRule(
  endpoints: EmulatorEndpoints,
  region: string,
  prefix: string,
  queueUrl: string,
) {
  const events = new EventBridgeClient(clientConfig(endpoints.events, region));
  const name = `${prefix}-${TASK_EVENTS_RULE.id}`;
  await events.send(
    new PutRuleCommand({ Name: name, EventPattern: JSON.stringify(TASK_EVENTS_RULE.eventPattern) }),
  );
  const queueArn = `arn:aws:sqs:${region}:${MOTO_ACCOUNT}:${queueUrl.split('/').pop() ?? ''}`;
  await events.send(new PutTargetsCommand({ Rule: name, Targets: [{ Id: 'task-events', Arn: queueArn }] }));
  events.destroy();
}

/** GPU regions of the local stack: two, so placement across regions runs locally too. */
export const LOCAL_GPU_REGIONS = ['us-east-1', 'us-west-2'] as const;

/** Zones per region with a fleet subnet. */
const LOCAL_ZONES_PER_REGION = 2;

export const launchTemplateName = (fleetName: string) => `${fleetName}-gpu-fleet`;

/**
 * One region's fleet like the CDK fleet stack's: a VPC with a subnet in each of
 * two zones and a launch template (IMDSv2 only, encrypted root volume, an
 * emulator AMI), all tagged with the fleet name the functions select them by.
 */
async function createFleet(client: EC2Client, fleetName: string) {
  const fleetTags = (resourceType: 'vpc' | 'subnet' | 'launch-template') => [
    { ResourceType: resourceType, Tags: [{ Key: FLEET_TAG, Value: fleetName }] },
  ];
  const images = await client.send(new DescribeImagesCommand({ Owners: ['amazon'], MaxResults: 5 }));
  const imageId = images.Images?.[0]?.ImageId;
  if (!imageId) throw new Error('The EC2 emulator lists no images to launch from');
  await client.send(
    new CreateLaunchTemplateCommand({
      LaunchTemplateName: launchTemplateName(fleetName),
      TagSpecifications: fleetTags('launch-template'),
      LaunchTemplateData: {
        ImageId: imageId,
        MetadataOptions: {
          HttpTokens: 'required',
          HttpEndpoint: 'enabled',
          HttpPutResponseHopLimit: IMDS_HOP_LIMIT,
        },
        BlockDeviceMappings: [
          {
            DeviceName: '/dev/sda1',
            Ebs: { Encrypted: true, VolumeType: 'gp3', VolumeSize: ROOT_VOLUME_GIB },
          },
        ],
      },
    }),
  );
  const vpc = await client.send(
    new CreateVpcCommand({ CidrBlock: '10.40.0.0/16', TagSpecifications: fleetTags('vpc') }),
  );
  const zones = await client.send(new DescribeAvailabilityZonesCommand({}));
  const names = (zones.AvailabilityZones ?? []).map((zone) => zone.ZoneName ?? '').filter(Boolean);
  for (const [index, zone] of names.slice(0, LOCAL_ZONES_PER_REGION).entries()) {
    await client.send(
      new CreateSubnetCommand({
        VpcId: vpc.Vpc?.VpcId,
        AvailabilityZone: zone,
        CidrBlock: `10.40.${index * 16}.0/20`,
        TagSpecifications: fleetTags('subnet'),
      }),
    );
  }
}

/**
 * The lease expiry schedule group, and the target its schedules send to (the
 * lease commands queue). moto does not check roles, so the role is only a name.
 */
async function createLeaseExpiry(
  scheduler: SchedulerClient,
  sqs: SQSClient,
  prefix: string,
  queueUrl: string,
) {
  const groupName = `${prefix}-${LEASE_EXPIRY.group.name}`;
  await scheduler.send(new CreateScheduleGroupCommand({ Name: groupName }));
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
  );
  return {
    [LEASE_EXPIRY.group.envVar]: groupName,
    [LEASE_EXPIRY.queueArnEnvVar]: Attributes?.QueueArn ?? '',
    [LEASE_EXPIRY.roleArnEnvVar]: `arn:aws:iam::000000000000:role/${prefix}-lease-expiry`,
  };
}

/**
 * The log groups and buckets of shared/resources.ts on moto, and the session
 * role's ARN (moto's STS issues credentials for any role name; it checks no policy).
 */
async function createTaskResources(endpoints: EmulatorEndpoints, region: string, prefix: string) {
  const env: Record<string, string> = {};
  const logs = new CloudWatchLogsClient(clientConfig(endpoints.logs, region));
  for (const group of Object.values(LOG_GROUPS)) {
    const name = `/${prefix}/${group.id}`;
    await logs.send(new CreateLogGroupCommand({ logGroupName: name }));
    await logs.send(
      new PutRetentionPolicyCommand({ logGroupName: name, retentionInDays: group.retentionDays }),
    );
    env[group.envVar] = name;
  }
  logs.destroy();
  const s3 = new S3Client({ ...clientConfig(endpoints.s3, region), forcePathStyle: true });
  for (const bucket of Object.values(BUCKETS)) {
    const name = `${prefix}-${bucket.id}`.toLowerCase();
    await s3.send(new CreateBucketCommand({ Bucket: name }));
    await s3.send(
      new PutPublicAccessBlockCommand({
        Bucket: name,
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          IgnorePublicAcls: true,
          BlockPublicPolicy: true,
          RestrictPublicBuckets: true,
        },
      }),
    );
    env[bucket.envVar] = name;
  }
  s3.destroy();
  env[SESSION_ROLE.envVar] = `arn:aws:iam::${MOTO_ACCOUNT}:role/${prefix}-${SESSION_ROLE.id}`;
  env[LEASE_MACHINE_ROLE.envVar] = `arn:aws:iam::${MOTO_ACCOUNT}:role/${prefix}-${LEASE_MACHINE_ROLE.id}`;
  return env;
}

/**
 * Creates on the emulators every table, queue (with its DLQ), topic, bus, log group and bucket that
 * shared/resources.ts declares (the list the CDK stack builds from), plus the
 * GPU launch template, and returns the environment the functions read.
 * `prefix` keeps parallel stacks (tests) apart on shared emulators.
 */
export async function createLocalResources(
  endpoints: EmulatorEndpoints,
  region: string,
  prefix: string,
): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  const dynamoDb = new DynamoDBClient(clientConfig(endpoints.dynamodb, region));
  const sqs = new SQSClient({ ...clientConfig(endpoints.sqs, region), useQueueUrlAsEndpoint: false });
  const motoSqs = new SQSClient({ ...clientConfig(endpoints.events, region), useQueueUrlAsEndpoint: false });
  const sns = new SNSClient(clientConfig(endpoints.sns, region));
  const events = new EventBridgeClient(clientConfig(endpoints.events, region));

  for (const table of Object.values(TABLES)) {
    const name = `${prefix}-${table.id}`;
    await createTable(dynamoDb, name, table);
    env[table.envVar] = name;
  }
  for (const queue of Object.values(QUEUES) as QueueDefinition[]) {
    // moto's EventBridge rules deliver only to moto's own SQS: queues they feed live there.
    const client = queue.fedBy === 'eventbridge' ? motoSqs : sqs;
    const { url, deadLetterUrl } = await createQueueWithDeadLetters(client, `${prefix}-${queue.id}`, queue);
    env[queue.envVar] = url;
    if (queue.deadLetterEnvVar) env[queue.deadLetterEnvVar] = deadLetterUrl;
  }
  await createEc2EventRules(endpoints, region, prefix, env[QUEUES.ec2Events.envVar] ?? '');
  await createTaskEventsRule(endpoints, region, prefix, env[QUEUES.taskEvents.envVar] ?? '');
  for (const topic of Object.values(TOPICS)) {
    const created = await sns.send(new CreateTopicCommand({ Name: `${prefix}-${topic.id}` }));
    env[topic.envVar] = created.TopicArn ?? '';
  }
  const busName = `${prefix}-${EVENT_BUS.name}`;
  await events.send(new CreateEventBusCommand({ Name: busName }));
  env[EVENT_BUS.envVar] = busName;

  const scheduler = new SchedulerClient(clientConfig(endpoints.scheduler, region));
  Object.assign(env, await createLeaseExpiry(scheduler, sqs, prefix, env[QUEUES.leaseCommands.envVar] ?? ''));
  Object.assign(env, await createTaskResources(endpoints, region, prefix));
  scheduler.destroy();
  for (const gpuRegion of LOCAL_GPU_REGIONS) {
    const ec2 = new EC2Client(clientConfig(endpoints.ec2, gpuRegion));
    await createFleet(ec2, prefix);
    ec2.destroy();
  }
  env.FLEET_NAME = prefix;
  env.GPU_REGIONS = LOCAL_GPU_REGIONS.join(',');

  for (const client of [dynamoDb, sqs, motoSqs, sns, events]) client.destroy();
  return env;
}
