import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EC2Client } from '@aws-sdk/client-ec2';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tracer } from './observability';

/*
 * One client per service, created once per container by the function that needs
 * it. Region and endpoints come from the SDK's standard variables (AWS_REGION,
 * AWS_ENDPOINT_URL_<SERVICE>), which is how the same code reaches the emulators.
 */
export const createDynamoDbClient = () => tracer.captureAWSv3Client(new DynamoDBClient({}));
export const createDocumentClient = (client: DynamoDBClient) =>
  DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
/** One per GPU region; the endpoint variable, when set, serves every region (moto does). */
export const createEc2Client = (region?: string) => tracer.captureAWSv3Client(new EC2Client({ region }));
/** Requests go to the configured endpoint, not a queue URL's host (emulators name hosts oddly). */
export const createSqsClient = () =>
  tracer.captureAWSv3Client(new SQSClient({ useQueueUrlAsEndpoint: false }));
export const createEventBridgeClient = () => tracer.captureAWSv3Client(new EventBridgeClient({}));
export const createSnsClient = () => tracer.captureAWSv3Client(new SNSClient({}));
export const createCloudWatchClient = () => tracer.captureAWSv3Client(new CloudWatchClient({}));
export const createSchedulerClient = () => tracer.captureAWSv3Client(new SchedulerClient({}));
