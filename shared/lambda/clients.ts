import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EC2Client } from '@aws-sdk/client-ec2';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
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
 */
export class Clients {
  private readonly made = new Map<string, unknown>();

  /** `given`: clients to use instead of new ones (tests pass a CloudWatch reading an emulator). */
  constructor(private readonly given: Partial<{ cloudWatch: CloudWatchClient }> = {}) {}

  private once<Client>(key: string, make: () => Client): Client {
    if (!this.made.has(key)) this.made.set(key, make());
    return this.made.get(key) as Client;
  }

  get dynamoDb(): DynamoDBClient {
    return this.once('dynamodb', () => tracer.captureAWSv3Client(new DynamoDBClient({})));
  }
  get documents(): DynamoDBDocumentClient {
    return this.once('documents', () =>
      DynamoDBDocumentClient.from(this.dynamoDb, { marshallOptions: { removeUndefinedValues: true } }),
    );
  }
  /** One per GPU region; the endpoint variable, when set, serves every region (moto does). */
  ec2(region: string): EC2Client {
    return this.once(`ec2:${region}`, () =>
      tracer.captureAWSv3Client(new EC2Client({ region, ...EC2_RETRY })),
    );
  }
  /** Requests go to the configured endpoint, not a queue URL's host (emulators name hosts oddly). */
  get sqs(): SQSClient {
    return this.once('sqs', () => tracer.captureAWSv3Client(new SQSClient({ useQueueUrlAsEndpoint: false })));
  }
  get eventBridge(): EventBridgeClient {
    return this.once('events', () => tracer.captureAWSv3Client(new EventBridgeClient({})));
  }
  get sns(): SNSClient {
    return this.once('sns', () => tracer.captureAWSv3Client(new SNSClient({})));
  }
  get cloudWatch(): CloudWatchClient {
    return this.once(
      'cloudwatch',
      () => this.given.cloudWatch ?? tracer.captureAWSv3Client(new CloudWatchClient({})),
    );
  }
  get cloudWatchLogs(): CloudWatchLogsClient {
    return this.once('logs', () => tracer.captureAWSv3Client(new CloudWatchLogsClient({})));
  }
  get sts(): STSClient {
    return this.once('sts', () => tracer.captureAWSv3Client(new STSClient({})));
  }
  get scheduler(): SchedulerClient {
    return this.once('scheduler', () => tracer.captureAWSv3Client(new SchedulerClient({})));
  }
}
