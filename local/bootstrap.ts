import { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import {
  CreateLaunchTemplateCommand,
  DescribeImagesCommand,
  DescribeSubnetsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { CreateEventBusCommand, EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { CreateScheduleGroupCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { CreateTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { EVENT_BUS, LEASE_EXPIRY, QUEUES, TABLES, type TableDefinition, TOPICS } from '../shared/resources';
import type { EmulatorEndpoints } from './emulators';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

function clientConfig(endpoint: string, region: string) {
  return { endpoint, region, credentials };
}

async function createTable(client: DynamoDBClient, name: string, table: TableDefinition): Promise<void> {
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
  queue: (typeof QUEUES)[keyof typeof QUEUES],
): Promise<string> {
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
  return created.QueueUrl ?? '';
}

/** A launch template like the CDK fleet's: IMDSv2 only, encrypted root volume, an emulator AMI. */
async function createFleet(client: EC2Client, prefix: string) {
  const images = await client.send(new DescribeImagesCommand({ Owners: ['amazon'], MaxResults: 5 }));
  const imageId = images.Images?.[0]?.ImageId;
  if (!imageId) throw new Error('The EC2 emulator lists no images to launch from');
  const template = await client.send(
    new CreateLaunchTemplateCommand({
      LaunchTemplateName: `${prefix}-gpu-fleet`,
      LaunchTemplateData: {
        ImageId: imageId,
        MetadataOptions: { HttpTokens: 'required', HttpEndpoint: 'enabled' },
        BlockDeviceMappings: [
          { DeviceName: '/dev/sda1', Ebs: { Encrypted: true, VolumeType: 'gp3', VolumeSize: 200 } },
        ],
      },
    }),
  );
  const subnets = await client.send(
    new DescribeSubnetsCommand({ Filters: [{ Name: 'default-for-az', Values: ['true'] }] }),
  );
  return {
    launchTemplateId: template.LaunchTemplate?.LaunchTemplateId ?? '',
    subnetIds: (subnets.Subnets ?? []).map((subnet) => subnet.SubnetId ?? '').filter(Boolean),
  };
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
 * Creates on the emulators every table, queue (with its DLQ), topic and bus that
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
  const sns = new SNSClient(clientConfig(endpoints.sns, region));
  const events = new EventBridgeClient(clientConfig(endpoints.events, region));
  const ec2 = new EC2Client(clientConfig(endpoints.ec2, region));

  for (const table of Object.values(TABLES)) {
    const name = `${prefix}-${table.id}`;
    await createTable(dynamoDb, name, table);
    env[table.envVar] = name;
  }
  for (const queue of Object.values(QUEUES)) {
    env[queue.envVar] = await createQueueWithDeadLetters(sqs, `${prefix}-${queue.id}`, queue);
  }
  for (const topic of Object.values(TOPICS)) {
    const created = await sns.send(new CreateTopicCommand({ Name: `${prefix}-${topic.id}` }));
    env[topic.envVar] = created.TopicArn ?? '';
  }
  const busName = `${prefix}-${EVENT_BUS.name}`;
  await events.send(new CreateEventBusCommand({ Name: busName }));
  env[EVENT_BUS.envVar] = busName;

  const scheduler = new SchedulerClient(clientConfig(endpoints.scheduler, region));
  Object.assign(env, await createLeaseExpiry(scheduler, sqs, prefix, env[QUEUES.leaseCommands.envVar] ?? ''));
  scheduler.destroy();

  const fleet = await createFleet(ec2, prefix);
  env.LAUNCH_TEMPLATE_ID = fleet.launchTemplateId;
  env.SUBNET_IDS = fleet.subnetIds.join(',');

  for (const client of [dynamoDb, sqs, sns, events, ec2]) client.destroy();
  return env;
}
