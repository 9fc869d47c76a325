import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EC2Client } from '@aws-sdk/client-ec2';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { S3Client } from '@aws-sdk/client-s3';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';
import { STSClient } from '@aws-sdk/client-sts';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tracer } from './observability';

/**
 * The one retry policy of every EC2 call: the SDK's adaptive mode (backoff with
 * jitter, and a client-side rate limit once EC2 throttles), five attempts in
 * all. Ec2Compute adds no loop of its own, so a throttled call makes five
 * requests, well inside the worker's 30 s.
 */
export const EC2_RETRY = { retryMode: 'adaptive', maxAttempts: 5 } as const;

/*
 * One client per service, created on first use by the ports of a function.
 * Region and endpoints come from the SDK's standard variables (AWS_REGION,
 * AWS_ENDPOINT_URL_<SERVICE>), which is how the same code reaches the emulators.
 * Each maker is a function of its own, so a bundle carries only the SDK clients
 * its function's ports make (Clients itself names none but DynamoDB's).
 */
export class Clients {
  private readonly made = new Map<string, unknown>();

  /** `given`: clients to use instead of new ones, by key (tests pass a `cloudwatch` reading an emulator). */
  constructor(private readonly given: Readonly<Record<string, unknown>> = {}) {}

  /** The client under `key`, made once per function by `make`. */
  of<Client>(key: string, make: () => Client): Client {
    if (!this.made.has(key)) this.made.set(key, (this.given[key] as Client | undefined) ?? make());
    return this.made.get(key) as Client;
  }

  /** Every function reads or writes a table, so DynamoDB's clients are always at hand. */
  get dynamoDb(): DynamoDBClient {
    return this.of('dynamodb', () => tracer.captureAWSv3Client(new DynamoDBClient({})));
  }
  get documents(): DynamoDBDocumentClient {
    return this.of('documents', () =>
      DynamoDBDocumentClient.from(this.dynamoDb, { marshallOptions: { removeUndefinedValues: true } }),
    );
  }
}

/** One per GPU region; the endpoint variable, when set, serves every region (moto does). */
export const ec2Client = (clients: Clients, region: string): EC2Client =>
  clients.of(`ec2:${region}`, () => tracer.captureAWSv3Client(new EC2Client({ region, ...EC2_RETRY })));

/** Requests go to the configured endpoint, not a queue URL's host (emulators name hosts oddly). */
export const sqsClient = (clients: Clients): SQSClient =>
  clients.of('sqs', () => tracer.captureAWSv3Client(new SQSClient({ useQueueUrlAsEndpoint: false })));

export const eventBridgeClient = (clients: Clients): EventBridgeClient =>
  clients.of('events', () => tracer.captureAWSv3Client(new EventBridgeClient({})));

export const snsClient = (clients: Clients): SNSClient =>
  clients.of('sns', () => tracer.captureAWSv3Client(new SNSClient({})));

export const cloudWatchClient = (clients: Clients): CloudWatchClient =>
  clients.of('cloudwatch', () => tracer.captureAWSv3Client(new CloudWatchClient({})));

export const schedulerClient = (clients: Clients): SchedulerClient =>
  clients.of('scheduler', () => tracer.captureAWSv3Client(new SchedulerClient({})));

/** One per GPU region: a task's command goes to its instance's region. */
export const ssmClient = (clients: Clients, region: string): SSMClient =>
  clients.of(`ssm:${region}`, () => tracer.captureAWSv3Client(new SSMClient({ region })));

export const cloudWatchLogsClient = (clients: Clients): CloudWatchLogsClient =>
  clients.of('logs', () => tracer.captureAWSv3Client(new CloudWatchLogsClient({})));

export const stsClient = (clients: Clients): STSClient =>
  clients.of('sts', () => tracer.captureAWSv3Client(new STSClient({})));

export const s3Client = (clients: Clients): S3Client =>
  clients.of('s3', () => tracer.captureAWSv3Client(new S3Client({})));
