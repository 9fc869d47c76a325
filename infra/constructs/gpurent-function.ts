import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage, Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { type IRole, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  ApplicationLogLevel,
  Architecture,
  Code,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { acknowledgeTableIndexes } from './data';
import { BUNDLE_AWS_SDK, bundleLambdaSync, LAMBDA_NODE_OPTIONS, type LambdaBuild } from './lambda-bundling';
import { acknowledgeWildcardAction, acknowledgeWildcardResource } from './nag';

/** Root of the repository: `functions/`, `package-lock.json` and `tsconfig.json` live here. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The Node.js runtime every gpurent function runs on: the newest one aws-cdk-lib knows,
 * pinned explicitly (not `NODEJS_LATEST`) so a CDK upgrade never changes it silently.
 */
export const GPURENT_RUNTIME = Runtime.NODEJS_24_X;

export type GpurentLogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/** How a function uses a DynamoDB table. */
export type TableAccess = 'read' | 'readWrite';

/** How a function uses an SQS queue (consumers normally get an event source instead). */
export type QueueAccess = 'send' | 'consume';

/** A table plus the environment variable that carries its name (see `shared/resources.ts`). */
export interface TableBinding {
  readonly table: ITable;
  readonly envVar: string;
  /** Whether the table has secondary indexes; read/write grants then also cover `<table>/index/*`. */
  readonly hasIndexes: boolean;
}

/** A queue plus the environment variable that carries its URL. */
export interface QueueBinding {
  readonly queue: IQueue;
  readonly envVar: string;
}

/** A topic plus the environment variable that carries its ARN. */
export interface TopicBinding {
  readonly topic: ITopic;
  readonly envVar: string;
}

/** An event bus plus the environment variable that carries its name. */
export interface EventBusBinding {
  readonly eventBus: IEventBus;
  readonly envVar: string;
}

export interface GpurentFunctionProps {
  /**
   * Folder under `functions/` whose `handler.ts` exports `handler`, e.g. `lease-worker`.
   */
  readonly handlerName: string;

  /** @default - none */
  readonly description?: string;

  /** @default 512 */
  readonly memorySize?: number;

  /** @default Duration.seconds(30) */
  readonly timeout?: Duration;
  /**
   * Executions kept for this function alone, and its ceiling (the API's: one
   * tenant's flood cannot take every execution of the account, nor starve the API).
   * @default - none: the account's unreserved pool
   */
  readonly reservedConcurrentExecutions?: number;

  /**
   * Level for Powertools Logger (`LOG_LEVEL`) and for Lambda's application log filter.
   * @default 'INFO'
   */
  readonly logLevel?: GpurentLogLevel;

  /** @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;

  /**
   * What happens to the function's log group when it leaves the stack.
   * @default RemovalPolicy.DESTROY
   */
  readonly logRemovalPolicy?: RemovalPolicy;

  /** Extra environment variables. @default - only the Powertools and Node.js settings */
  readonly environment?: Record<string, string>;

  /**
   * Bundle the AWS SDK instead of using the copy in the Lambda runtime (see
   * `BUNDLE_AWS_SDK` for why that is the default).
   * @default true
   */
  readonly bundleAwsSdk?: boolean;

  /** Repository root holding `functions/`, `package-lock.json`, `tsconfig.json`. @default PROJECT_ROOT */
  readonly projectRoot?: string;

  /**
   * Data files copied into the function package next to the bundle (e.g. the spot
   * traces the audit replays), read at run time from `/var/task/<into>`.
   * @default - none
   */
  readonly bundledData?: BundledData;
}

/** Folders of `sourceDir` copied into `<package>/<into>/` at bundling time. */
export interface BundledData {
  readonly sourceDir: string;
  readonly folders: readonly string[];
  readonly into: string;
}

/** Where Lambda unpacks the function package. */
export const LAMBDA_TASK_ROOT = '/var/task';

/**
 * The one opinionated Lambda function of gpurent: a `NodejsFunction` bundled locally by
 * esbuild (ESM, minified, source maps, split into `index.mjs` and the chunks it imports
 * on first use: `lambdaBuildOptions`), on ARM64 and the newest Node.js runtime, with
 * X-Ray tracing, JSON logs into its own log group with retention, and the Powertools
 * environment. Its role starts empty (no AWS managed policies) and grows only through
 * the `bind*` helpers and explicit grants.
 */
export class GpurentFunction extends NodejsFunction {
  /** The execution role; never undefined for a GpurentFunction. */
  public override readonly role: IRole;
  /** Folder under `functions/` of its handler (and of the wiring its grants follow). */
  public readonly handlerName: string;

  constructor(scope: Construct, id: string, props: GpurentFunctionProps) {
    const projectRoot = props.projectRoot ?? PROJECT_ROOT;
    const entry = join(projectRoot, 'functions', props.handlerName, 'handler.ts');
    if (!existsSync(entry)) {
      throw new Error(
        `GpurentFunction ${id}: no handler at ${entry}. Create functions/${props.handlerName}/handler.ts exporting \`handler\`, or fix handlerName.`,
      );
    }
    const logLevel = props.logLevel ?? 'INFO';
    const bundleAwsSdk = props.bundleAwsSdk ?? BUNDLE_AWS_SDK;
    const data = props.bundledData;
    for (const folder of data?.folders ?? []) {
      if (!existsSync(join(data?.sourceDir ?? '', folder))) {
        throw new Error(
          `GpurentFunction ${id}: no ${folder} in ${data?.sourceDir}; bundledData needs it (pass -c spotDataDir=<dir>).`,
        );
      }
    }

    // Created in the parent scope, before super() (nothing may touch `this` earlier): they
    // become siblings of the function, with ids derived from its id.
    const logGroup = new LogGroup(scope, `${id}LogGroup`, {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.DESTROY,
    });
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of the gpurent ${props.handlerName} function`,
    });
    logGroup.grantWrite(role);

    super(scope, id, {
      handler: 'index.handler',
      description: props.description,
      runtime: GPURENT_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(30),
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      tracing: Tracing.ACTIVE,
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      applicationLogLevelV2: ApplicationLogLevel[logLevel],
      systemLogLevelV2: SystemLogLevel.INFO,
      // Bundled by lambdaBuildOptions (split into index.mjs and chunks/), not by NodejsFunction's
      // esbuild CLI: that writes one --outfile, which code splitting cannot do.
      code: lambdaPackage({
        entry,
        projectRoot,
        target: `node${/nodejs(\d+)/.exec(GPURENT_RUNTIME.name)?.[1]}`,
        bundleAwsSdk,
        tsconfig: join(projectRoot, 'tsconfig.json'),
        data,
      }),
      environment: {
        POWERTOOLS_SERVICE_NAME: 'gpurent',
        POWERTOOLS_METRICS_NAMESPACE: 'gpurent',
        LOG_LEVEL: logLevel,
        NODE_OPTIONS: LAMBDA_NODE_OPTIONS,
        ...props.environment,
      },
    });
    this.role = role;
    this.handlerName = props.handlerName;

    // Tracing.ACTIVE adds xray:PutTraceSegments / xray:PutTelemetryRecords on '*'.
    acknowledgeWildcardResource(
      role,
      '*',
      'X-Ray tracing (Tracing.ACTIVE): xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.',
    );
  }

  /** Grants access to a table and puts its name into the table's environment variable. */
  public bindTable(binding: TableBinding, access: TableAccess = 'readWrite'): this {
    if (access === 'read') binding.table.grantReadData(this);
    else binding.table.grantReadWriteData(this);
    this.addEnvironment(binding.envVar, binding.table.tableName);
    if (binding.hasIndexes) acknowledgeTableIndexes(this.role, binding.table);
    return this;
  }

  /** Grants send (or consume) on a queue and puts its URL into the queue's environment variable. */
  public bindQueue(binding: QueueBinding, access: QueueAccess = 'send'): this {
    if (access === 'send') binding.queue.grantSendMessages(this);
    else binding.queue.grantConsumeMessages(this);
    this.addEnvironment(binding.envVar, binding.queue.queueUrl);
    return this;
  }

  /** Grants receiving and deleting on a queue's dead-letter queue and puts its URL into the DLQ's variable. */
  public bindDeadLetters(queue: {
    readonly deadLetterQueue: IQueue;
    readonly definition: { readonly id: string; readonly deadLetterEnvVar?: string };
  }): this {
    const envVar = queue.definition.deadLetterEnvVar;
    if (!envVar)
      throw new Error(`Queue ${queue.definition.id} names no deadLetterEnvVar in shared/resources.ts`);
    queue.deadLetterQueue.grantConsumeMessages(this);
    this.addEnvironment(envVar, queue.deadLetterQueue.queueUrl);
    return this;
  }

  /**
   * Grants publish on a topic and puts its ARN into the topic's environment variable.
   * On a KMS-encrypted topic this includes `kms:GenerateDataKey*` on the topic's key.
   */
  public bindTopic(binding: TopicBinding): this {
    binding.topic.grantPublish(this);
    this.addEnvironment(binding.envVar, binding.topic.topicArn);
    if (binding.topic.masterKey) {
      acknowledgeWildcardAction(
        this.role,
        'kms:GenerateDataKey*',
        'Publishing to a KMS-encrypted SNS topic: CDK grants kms:GenerateDataKey* (its data-key variants) on that topic key only.',
      );
    }
    return this;
  }

  /** Grants events:PutEvents on a bus and puts its name into the bus's environment variable. */
  public bindEventBus(binding: EventBusBinding): this {
    binding.eventBus.grantPutEventsTo(this);
    this.addEnvironment(binding.envVar, binding.eventBus.eventBusName);
    return this;
  }
}

/**
 * The function package: the handler bundled by lambdaBuildOptions into
 * `index.mjs` and its `chunks/` (plus any bundled data), built locally with
 * esbuild's API. The asset is hashed by its output, as NodejsFunction's is; the
 * local provider's fields name the build, so functions never share a cached
 * package.
 */
function lambdaPackage(
  build: Omit<LambdaBuild, 'outDir'> & { readonly bundleAwsSdk: boolean; readonly data?: BundledData },
): Code {
  const { data, ...options } = build;
  return Code.fromAsset(options.projectRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never pulled: local bundling always succeeds or throws (esbuild is a dev dependency).
      image: DockerImage.fromRegistry('dummy'),
      local: {
        ...options,
        ...(data === undefined ? {} : { data }),
        tryBundle(outputDir: string): boolean {
          bundleLambdaSync({ ...options, outDir: outputDir });
          for (const folder of data?.folders ?? []) {
            cpSync(join(data?.sourceDir ?? '', folder), join(outputDir, data?.into ?? '', folder), {
              recursive: true,
            });
          }
          return true;
        },
      },
    },
  });
}
