import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startFauxqs } from 'fauxqs';
import { startMoto } from './moto';
import { freePort, type ManagedProcess, requireTool, startAllOrNone, startProcess } from './processes';

export interface EmulatorEndpoints {
  readonly dynamodb: string;
  readonly sqs: string;
  readonly sns: string;
  readonly ec2: string;
  readonly cloudwatch: string;
  readonly events: string;
  readonly scheduler: string;
  /** moto: CloudWatch Logs (task output), STS (session credentials), S3 (checkpoints). */
  readonly logs: string;
  readonly sts: string;
  readonly s3: string;
}

export interface RunningEmulators {
  readonly endpoints: EmulatorEndpoints;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** DynamoDB Local 1.25 ships inside amplify-dynamodb-simulator; only its jar is used. */
function dynamoDbLocalDir(): string {
  return join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
}

/**
 * Starts DynamoDB Local (Java), moto_server (EC2, CloudWatch and its Logs, EventBridge, STS, S3) and
 * fauxqs (SQS, SNS, in this process) on free loopback ports.
 */
export async function startEmulators(): Promise<RunningEmulators> {
  requireTool(
    'java',
    ['-version'],
    'DynamoDB Local needs Java 17+ (apt-get install openjdk-17-jre-headless).',
  );
  requireTool('moto_server', ['--help'], 'Install moto with its server: pip install "moto[server]".');

  const [dynamoPort, motoPort] = await Promise.all([freePort(), freePort()]);
  const started = await startAllOrNone([
    startProcess(
      'DynamoDB Local',
      'java',
      [
        '-Djava.library.path=./DynamoDBLocal_lib',
        '-jar',
        'DynamoDBLocal.jar',
        '-inMemory',
        '-sharedDb',
        '-port',
        String(dynamoPort),
      ],
      dynamoPort,
      { cwd: dynamoDbLocalDir() },
    ),
    startMoto(motoPort),
    startFauxqs({ port: 0, logger: false }).then(
      (server): ManagedProcess => ({ name: 'fauxqs', port: server.port, stop: () => server.stop() }),
    ),
  ]);
  const stop = async () => {
    await Promise.all(started.map((process) => process.stop()));
  };
  const [dynamo, moto, fauxqs] = started as [ManagedProcess, ManagedProcess, ManagedProcess];
  const motoUrl = `http://127.0.0.1:${moto.port}`;
  const fauxqsUrl = `http://127.0.0.1:${fauxqs.port}`;
  return {
    endpoints: {
      dynamodb: `http://127.0.0.1:${dynamo.port}`,
      sqs: fauxqsUrl,
      sns: fauxqsUrl,
      ec2: motoUrl,
      cloudwatch: motoUrl,
      events: motoUrl,
      scheduler: motoUrl,
      logs: motoUrl,
      sts: motoUrl,
      s3: motoUrl,
    },
    stop,
  };
}

/** The SDK's standard per-service endpoint variables, plus dummy credentials for the emulators. */
export function emulatorEnvironment(endpoints: EmulatorEndpoints, region: string): Record<string, string> {
  return {
    AWS_REGION: region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    AWS_ENDPOINT_URL_SQS: endpoints.sqs,
    AWS_ENDPOINT_URL_SNS: endpoints.sns,
    AWS_ENDPOINT_URL_EC2: endpoints.ec2,
    AWS_ENDPOINT_URL_CLOUDWATCH: endpoints.cloudwatch,
    AWS_ENDPOINT_URL_EVENTBRIDGE: endpoints.events,
    // SSM Run Command (tasks) is moto's, as are CloudWatch Logs, STS and S3 below.
    AWS_ENDPOINT_URL_SSM: endpoints.events,
    // The SDK gzips large PutMetricData bodies; moto_server cannot read them (AWS can).
    AWS_DISABLE_REQUEST_COMPRESSION: 'true',
    AWS_ENDPOINT_URL_SCHEDULER: endpoints.scheduler,
    AWS_ENDPOINT_URL_CLOUDWATCH_LOGS: endpoints.logs,
    AWS_ENDPOINT_URL_STS: endpoints.sts,
    AWS_ENDPOINT_URL_S3: endpoints.s3,
  };
}
