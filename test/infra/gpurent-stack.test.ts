import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../infra/constructs/api';
import { GPU_AMI_SSM_PARAMETER } from '../../infra/constructs/fleet';
import type { GpurentStack } from '../../infra/gpurent-stack';
import { LOCAL_TOKEN_PATH } from '../../local/runtime/token-minting';
import { type Reach, type Wiring, wiringEnv, wiringReaches } from '../../shared/lambda/port-factory';
import { QUEUES, TABLES, TOPICS } from '../../shared/resources';
import * as z from '../../shared/zod';
import { logicalIdOf, SYNTH_TIMEOUT_MS, synthesizeGpurent } from './support/synth';

type Resource = { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string };
type Statement = {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
};

let stack: GpurentStack;
let template: Template;
let assemblyDirectory: string;

beforeAll(() => {
  const synthesized = synthesizeGpurent();
  stack = synthesized.stack;
  assemblyDirectory = synthesized.assembly?.directory ?? '';
  template = synthesized.template();
}, SYNTH_TIMEOUT_MS);

const resourcesOfType = (type: string): Record<string, Resource> =>
  template.findResources(type) as Record<string, Resource>;

const POWERTOOLS_ENV = [
  'POWERTOOLS_SERVICE_NAME',
  'POWERTOOLS_METRICS_NAMESPACE',
  'LOG_LEVEL',
  'NODE_OPTIONS',
];

/** Every statement of every IAM policy attached to the role of `fn`. */
function statementsOf(fn: keyof GpurentStack['functions']): Statement[] {
  const roleId = logicalIdOf(stack, stack.functions[fn].role);
  return Object.values(resourcesOfType('AWS::IAM::Policy'))
    .filter((policy) => JSON.stringify(policy.Properties?.Roles) === JSON.stringify([{ Ref: roleId }]))
    .flatMap(
      (policy) =>
        (policy.Properties?.PolicyDocument as { Statement?: Statement[] } | undefined)?.Statement ?? [],
    );
}

const FUNCTION_NAMES = [
  'api',
  'leaseWorker',
  'metering',
  'reconciler',
  'deadlineSchedule',
  'budgetEvaluator',
  'scalingEvaluator',
  'audit',
  'interruptionHandler',
  'taskEvents',
  'warmPoolFiller',
  'admission',
  'capacityRefresh',
] as const satisfies readonly (keyof GpurentStack['functions'])[];

/** The wiring the function's handler builds its ports from: functions/<handler>/wiring.ts, its one export. */
async function wiringOf(fn: keyof GpurentStack['functions']): Promise<Wiring> {
  const module = (await import(`../../functions/${stack.functions[fn].handlerName}/wiring.ts`)) as Record<
    string,
    Wiring
  >;
  const wirings = Object.values(module);
  expect(wirings).toHaveLength(1);
  return wirings[0] as Wiring;
}

const environmentOf = (fn: Resource): Record<string, unknown> =>
  (fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};

const actionsOf = (statement: Statement): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

const statementWith = (statements: Statement[], action: string): Statement | undefined =>
  statements.find((statement) => actionsOf(statement).includes(action));

describe('gpurent stack: one stack with every resource of the walking skeleton', () => {
  it('has the tables, queues, topics, bus, schedules, API and functions it should', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', Object.keys(TABLES).length);
    template.resourceCountIs('AWS::SQS::Queue', 2 * Object.keys(QUEUES).length);
    template.resourceCountIs('AWS::SNS::Topic', Object.keys(TOPICS).length);
    template.resourceCountIs('AWS::Events::EventBus', 1);
    template.resourceCountIs('AWS::Scheduler::Schedule', 9);
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    template.resourceCountIs('AWS::ApiGatewayV2::Route', API_ROUTES.length);
    template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 1);
    template.resourceCountIs('AWS::Cognito::UserPool', 1);
    template.resourceCountIs('AWS::EC2::LaunchTemplate', 1);
    template.resourceCountIs('AWS::EC2::NatGateway', 0);
    template.resourceCountIs('AWS::EC2::FlowLog', 1);
    // The gpurent functions run on ARM64 (CDK's own custom resource handler does not).
    const gpurentFunctions = Object.values(resourcesOfType('AWS::Lambda::Function')).filter(
      (fn) => JSON.stringify(fn.Properties?.Architectures) === '["arm64"]',
    );
    expect(gpurentFunctions).toHaveLength(Object.keys(stack.functions).length);
  });

  it('carries EC2 spot warnings, rebalance and state changes from the default bus to the interruption handler', () => {
    const rules = Object.values(resourcesOfType('AWS::Events::Rule')).filter(
      (rule) =>
        (rule.Properties?.EventPattern as { source?: string[] } | undefined)?.source?.[0] === 'aws.ec2',
    );
    expect(rules).toHaveLength(1);
    const rule = rules[0]?.Properties as {
      EventBusName?: unknown;
      EventPattern: Record<string, unknown>;
      Targets: { Arn: unknown }[];
    };
    expect(rule.EventBusName).toBeUndefined();
    expect(rule.EventPattern['detail-type']).toEqual([
      'EC2 Spot Instance Interruption Warning',
      'EC2 Instance Rebalance Recommendation',
      'EC2 Instance State-change Notification',
    ]);
    expect(rule.Targets[0]?.Arn).toEqual({
      'Fn::GetAtt': [logicalIdOf(stack, stack.queues.queues.ec2Events.queue), 'Arn'],
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalIdOf(stack, stack.functions.interruptionHandler) },
      EventSourceArn: { 'Fn::GetAtt': [logicalIdOf(stack, stack.queues.queues.ec2Events.queue), 'Arn'] },
    });
  });

  it('names the domain event bus gpurent', () => {
    template.hasResourceProperties('AWS::Events::EventBus', { Name: 'gpurent' });
  });

  it('exports the API URL, user pool, client, bus and table names', () => {
    const outputs = Object.keys(template.findOutputs('*'));
    expect(outputs).toEqual(
      expect.arrayContaining([
        'ApiUrl',
        'UserPoolId',
        'UserPoolClientId',
        'EventBusName',
        ...Object.values(TABLES).map((table) => `${table.id}Name`),
      ]),
    );
  });
});

describe('tables', () => {
  it.each(Object.entries(TABLES))('%s: keys, on-demand, PITR, encryption, TTL, indexes, retained', (name) => {
    const definition = TABLES[name as keyof typeof TABLES];
    const id = logicalIdOf(stack, stack.data.tables[name as keyof typeof TABLES]);
    const table = template.toJSON().Resources[id] as Resource & { UpdateReplacePolicy?: string };
    expect(table.Type).toBe('AWS::DynamoDB::Table');
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    const keySchema = [
      { AttributeName: definition.partitionKey, KeyType: 'HASH' },
      ...('sortKey' in definition ? [{ AttributeName: definition.sortKey, KeyType: 'RANGE' }] : []),
    ];
    expect(table.Properties).toMatchObject({
      KeySchema: keySchema,
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      DeletionProtectionEnabled: true,
    });
    if ('timeToLiveAttribute' in definition) {
      expect(table.Properties?.TimeToLiveSpecification).toEqual({
        AttributeName: definition.timeToLiveAttribute,
        Enabled: true,
      });
    }
    const indexes = (table.Properties?.GlobalSecondaryIndexes ?? []) as Array<Record<string, unknown>>;
    expect(indexes.map((index) => index.IndexName)).toEqual(definition.indexes.map((index) => index.name));
    definition.indexes.forEach((index: { projection?: string }, i) => {
      expect(indexes[i]?.Projection).toEqual({ ProjectionType: index.projection ?? 'ALL' });
    });
  });
});

describe('queues', () => {
  it('gives every work queue a dead-letter queue with the redrive from shared/resources.ts', () => {
    const queues = resourcesOfType('AWS::SQS::Queue');
    const workQueues = Object.entries(queues).filter(([, queue]) => queue.Properties?.RedrivePolicy);
    const deadLetterIds = new Set(
      workQueues.map(([, queue]) => {
        const redrive = queue.Properties?.RedrivePolicy as {
          deadLetterTargetArn: { 'Fn::GetAtt': [string, string] };
          maxReceiveCount: number;
        };
        return redrive.deadLetterTargetArn['Fn::GetAtt'][0];
      }),
    );
    expect(workQueues).toHaveLength(Object.keys(QUEUES).length);
    // Every queue is either a work queue with a redrive or the dead-letter queue of one.
    for (const id of Object.keys(queues)) {
      expect(queues[id]?.Properties?.RedrivePolicy !== undefined || deadLetterIds.has(id)).toBe(true);
    }
    for (const [name, definition] of Object.entries(QUEUES)) {
      const queue = stack.queues.queues[name as keyof typeof QUEUES];
      const workQueue = queues[logicalIdOf(stack, queue.queue)];
      const deadLetterId = logicalIdOf(stack, queue.deadLetterQueue);
      expect(workQueue?.Properties).toMatchObject({
        VisibilityTimeout: definition.visibilityTimeoutSeconds,
        RedrivePolicy: {
          deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterId, 'Arn'] },
          maxReceiveCount: definition.maxReceiveCount,
        },
      });
      expect(queues[deadLetterId]?.DeletionPolicy).toBe('Retain');
      expect(queues[deadLetterId]?.Properties?.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    }
  });

  it('encrypts every queue and refuses plain HTTP', () => {
    for (const queue of Object.values(resourcesOfType('AWS::SQS::Queue'))) {
      expect(queue.Properties?.SqsManagedSseEnabled).toBe(true);
    }
    const policies = Object.values(resourcesOfType('AWS::SQS::QueuePolicy'));
    expect(policies).toHaveLength(2 * Object.keys(QUEUES).length);
    for (const policy of policies) {
      expect(policy.Properties?.PolicyDocument).toMatchObject({
        Statement: expect.arrayContaining([
          expect.objectContaining({
            Effect: 'Deny',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      });
    }
  });

  it('alarms on every dead-letter queue into the operator topic', () => {
    const operatorTopic = logicalIdOf(stack, stack.alerts.topics.operatorAlerts);
    for (const queue of stack.queues.all) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [
          {
            Name: 'QueueName',
            Value: { 'Fn::GetAtt': [logicalIdOf(stack, queue.deadLetterQueue), 'QueueName'] },
          },
        ],
        Threshold: 1,
        AlarmActions: [{ Ref: operatorTopic }],
      });
    }
  });
});

describe('topics', () => {
  it('encrypts the topics with a rotated customer managed key and enforces TLS', () => {
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    for (const topic of Object.values(resourcesOfType('AWS::SNS::Topic'))) {
      expect(topic.Properties?.KmsMasterKeyId).toBeDefined();
    }
    template.resourcePropertiesCountIs(
      'AWS::SNS::TopicPolicy',
      {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      },
      Object.keys(TOPICS).length,
    );
  });
});

describe('HTTP API', () => {
  it('uses a Cognito JWT authorizer: issuer of the user pool, audience the app client', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: {
        Audience: [{ Ref: logicalIdOf(stack, stack.api.userPoolClient) }],
        Issuer: {
          'Fn::Join': [
            '',
            ['https://cognito-idp.us-east-1.amazonaws.com/', { Ref: logicalIdOf(stack, stack.api.userPool) }],
          ],
        },
      },
    });
  });

  it('protects every route with the authorizer except health and openapi.json', () => {
    const authorizerId = Object.keys(resourcesOfType('AWS::ApiGatewayV2::Authorizer'))[0];
    const routes = Object.values(resourcesOfType('AWS::ApiGatewayV2::Route')).map(
      (route) => route.Properties as { RouteKey: string; AuthorizationType: string; AuthorizerId?: unknown },
    );
    const byKey = new Map(routes.map((route) => [route.RouteKey, route]));
    const publicKeys = ['GET /v1/health', 'GET /v1/openapi.json'];
    // Every declared route that gives no reason to be public needs a token.
    const protectedKeys = API_ROUTES.filter((route) => !route.publicBecause).map(
      (route) => `${route.method} ${route.path}`,
    );
    expect(protectedKeys).toEqual(expect.arrayContaining(['POST /v1/leases', 'GET /v1/admin/budgets']));
    expect([...byKey.keys()].sort()).toEqual([...publicKeys, ...protectedKeys].sort());
    for (const key of publicKeys) {
      expect(byKey.get(key)?.AuthorizationType).toBe('NONE');
      expect(byKey.get(key)?.AuthorizerId).toBeUndefined();
    }
    for (const key of protectedKeys) {
      expect(byKey.get(key)?.AuthorizationType).toBe('JWT');
      expect(byKey.get(key)?.AuthorizerId).toEqual({ Ref: authorizerId });
    }
  });

  it('has no token-minting route: only the local gateway mints tokens, so a deployment cannot', () => {
    const routeKeys = Object.values(resourcesOfType('AWS::ApiGatewayV2::Route')).map(
      (route) => (route.Properties as { RouteKey: string }).RouteKey,
    );
    expect(routeKeys.length).toBeGreaterThan(0);
    expect(routeKeys.filter((key) => key.includes(LOCAL_TOKEN_PATH))).toEqual([]);
    expect(JSON.stringify(template.toJSON())).not.toContain(LOCAL_TOKEN_PATH);
  });

  it('gives users an immutable tenant attribute they can read but not write', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      Schema: Match.arrayWith([
        Match.objectLike({ Name: 'tenant', AttributeDataType: 'String', Mutable: false }),
      ]),
      MfaConfiguration: 'ON',
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
    });
    const client = Object.values(resourcesOfType('AWS::Cognito::UserPoolClient'))[0]?.Properties;
    expect(client?.ReadAttributes).toContain('custom:tenant');
    expect(client?.WriteAttributes).not.toContain('custom:tenant');
    expect(client?.GenerateSecret).toBe(false);
  });

  it('writes access logs and throttles the $default stage', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: {
        DestinationArn: { 'Fn::GetAtt': [logicalIdOf(stack, stack.api.accessLogGroup), 'Arn'] },
        Format: Match.stringLikeRegexp('\\$context\\.requestId'),
      },
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
    });
  });

  it('reserves 50 concurrent executions for the API function, and only for it', () => {
    const functions = template.findResources('AWS::Lambda::Function');
    const reserved = Object.entries(functions)
      .filter(([, fn]) => fn.Properties?.ReservedConcurrentExecutions !== undefined)
      .map(([id, fn]) => [id, fn.Properties?.ReservedConcurrentExecutions]);
    expect(reserved).toEqual([[logicalIdOf(stack, stack.functions.api), 50]]);
  });

  it('keeps the per-tenant request counters in a table of their own whose items expire', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
  });
});

describe('schedules', () => {
  it.each([
    ['metering', 'rate(1 minute)', 60],
    ['reconciler', 'rate(5 minutes)', 300],
    ['deadlineSchedule', 'rate(2 minutes)', 120],
    ['budgetEvaluator', 'rate(5 minutes)', 300],
    ['scalingEvaluator', 'rate(1 minute)', 60],
    ['admission', 'rate(1 minute)', 60],
    ['capacityRefresh', 'rate(5 minutes)', 300],
  ] as const)('invokes %s at %s, without retries', (fn, expression, maxAge) => {
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: expression,
      State: 'ENABLED',
      Target: {
        Arn: { 'Fn::GetAtt': [logicalIdOf(stack, stack.functions[fn]), 'Arn'] },
        RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: maxAge },
        Input: Match.anyValue(),
      },
    });
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: logicalIdOf(stack, stack.functions[fn]) },
      MaximumRetryAttempts: 0,
    });
  });
});

describe('monthly audit', () => {
  it('invokes the audit function at 00:30 UTC on the 1st, once, with six hours to start', () => {
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'cron(30 0 1 * ? *)',
      State: 'ENABLED',
      Target: {
        Arn: { 'Fn::GetAtt': [logicalIdOf(stack, stack.functions.audit), 'Arn'] },
        RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 6 * 3600 },
        Input: Match.anyValue(),
      },
    });
  });

  it('publishes audit summaries to the budget alerts topic only, and keeps audits in a retained table', () => {
    const publish = statementWith(statementsOf('audit'), 'sns:Publish');
    expect(publish?.Resource).toEqual({ Ref: logicalIdOf(stack, stack.alerts.topics.budgetAlerts) });
    const table = template.toJSON().Resources[logicalIdOf(stack, stack.data.tables.audits)] as Resource;
    expect(table.DeletionPolicy).toBe('Retain');
  });

  it('bundles the V100 spot traces into the API and audit packages and points SPOT_DATA_DIR at them', () => {
    for (const name of ['api', 'audit'] as const) {
      const fn = template.toJSON().Resources[logicalIdOf(stack, stack.functions[name])] as Resource;
      expect(environmentOf(fn).SPOT_DATA_DIR).toBe('/var/task/spot-data');
      const hash = /([0-9a-f]{64})\.zip/.exec(JSON.stringify(fn.Properties?.Code))?.[1];
      const packageDir = join(assemblyDirectory, `asset.${hash}`);
      for (const folder of ['spot-availability-aws-v100', 'spot-prices-aws-v100']) {
        expect(existsSync(join(packageDir, 'spot-data', folder)), `${name}: ${folder}`).toBe(true);
      }
    }
  });
});

describe('budgets', () => {
  it('runs the budget evaluator right after each successful metering run (on-success destination)', () => {
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: logicalIdOf(stack, stack.functions.metering) },
      DestinationConfig: {
        OnSuccess: {
          Destination: { 'Fn::GetAtt': [logicalIdOf(stack, stack.functions.budgetEvaluator), 'Arn'] },
        },
      },
    });
  });

  it('lets only the budget evaluator and metering (spend anomalies) publish, and only to the budget alerts topic', () => {
    const budgetTopic = { Ref: logicalIdOf(stack, stack.alerts.topics.budgetAlerts) };
    for (const fn of ['budgetEvaluator', 'metering'] as const) {
      expect(statementWith(statementsOf(fn), 'sns:Publish')?.Resource, fn).toEqual(budgetTopic);
    }
    for (const fn of ['api', 'leaseWorker', 'reconciler'] as const) {
      expect(statementWith(statementsOf(fn), 'sns:Publish')).toBeUndefined();
    }
  });

  it('creates the admin group whose members may list every budget', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolGroup', {
      GroupName: 'admin',
      UserPoolId: { Ref: logicalIdOf(stack, stack.api.userPool) },
    });
  });

  it('keeps spend counters and budgets in retained tables', () => {
    for (const name of ['spend', 'budgets'] as const) {
      const table = template.toJSON().Resources[logicalIdOf(stack, stack.data.tables[name])] as Resource;
      expect(table.DeletionPolicy).toBe('Retain');
    }
  });
});

describe('functions', () => {
  it('checks every function of the stack', () => {
    expect([...FUNCTION_NAMES].sort()).toEqual(Object.keys(stack.functions).sort());
  });

  it.each(FUNCTION_NAMES)(
    "%s: Node.js 24 on ARM64, traced, JSON logs, the environment its handler's configuration schema reads",
    async (name) => {
      const fn = template.toJSON().Resources[logicalIdOf(stack, stack.functions[name])] as Resource;
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: {
          LogFormat: 'JSON',
          LogGroup: { Ref: logicalIdOf(stack, stack.functions[name].logGroup) },
        },
      });
      const variables = environmentOf(fn);
      const schema = wiringEnv(await wiringOf(name));
      const required = Object.keys(schema).filter(
        (key) => key !== 'AWS_REGION' && !z.safeParse(schema[key] as z.ZodMiniType, undefined).success,
      );
      // Every variable set is one the handler reads, and every one it needs is set.
      expect(Object.keys(variables).sort()).toEqual(
        expect.arrayContaining([...POWERTOOLS_ENV, ...required].sort()),
      );
      for (const key of Object.keys(variables)) {
        expect(
          POWERTOOLS_ENV.includes(key) || key in schema,
          `${name} sets ${key}, which it never reads`,
        ).toBe(true);
      }
      expect(variables).toMatchObject({
        POWERTOOLS_SERVICE_NAME: 'gpurent',
        POWERTOOLS_METRICS_NAMESPACE: 'gpurent',
        LOG_LEVEL: 'INFO',
        NODE_OPTIONS: '--enable-source-maps',
      });
    },
  );

  it('points the table variables at the right tables', () => {
    const resources = template.toJSON().Resources as Record<string, Resource>;
    const pointed = new Set<string>();
    // Each function carries the variables of the tables its wiring reaches: every one it carries names its own table.
    for (const fn of Object.values(stack.functions)) {
      const variables = environmentOf(resources[logicalIdOf(stack, fn)] as Resource);
      for (const [name, definition] of Object.entries(TABLES)) {
        if (variables[definition.envVar] === undefined) continue;
        pointed.add(name);
        expect(variables[definition.envVar]).toEqual({
          Ref: logicalIdOf(stack, stack.data.tables[name as keyof typeof TABLES]),
        });
      }
    }
    expect(pointed.size).toBeGreaterThan(0);
    const apiFn = resources[logicalIdOf(stack, stack.functions.api)] as Resource;
    expect(environmentOf(apiFn).LEASE_COMMANDS_QUEUE_URL).toEqual({
      Ref: logicalIdOf(stack, stack.queues.queues.leaseCommands.queue),
    });
  });

  it('retains 30 days of logs per function and attaches no AWS managed policy to function roles', () => {
    const resources = template.toJSON().Resources as Record<string, Resource>;
    for (const fn of Object.values(stack.functions)) {
      expect(resources[logicalIdOf(stack, fn.logGroup)]?.Properties?.RetentionInDays).toBe(30);
      const role = template.toJSON().Resources[logicalIdOf(stack, fn.role)] as Resource;
      expect(role.Properties?.ManagedPolicyArns).toBeUndefined();
    }
  });

  it('lets the API, the reconciler and the worker (an expiry becomes a release command) send lease commands', () => {
    const queueArn = (queue: 'leaseCommands' | 'warmPoolFill') => ({
      'Fn::GetAtt': [logicalIdOf(stack, stack.queues.queues[queue].queue), 'Arn'],
    });
    for (const fn of ['api', 'reconciler'] as const) {
      expect(statementWith(statementsOf(fn), 'sqs:SendMessage')?.Resource).toEqual(queueArn('leaseCommands'));
    }
    // The worker also asks the warm-pool filler to top a pool up after a lease took a machine.
    expect(statementWith(statementsOf('leaseWorker'), 'sqs:SendMessage')?.Resource).toEqual([
      queueArn('leaseCommands'),
      queueArn('warmPoolFill'),
    ]);
    expect(statementWith(statementsOf('leaseWorker'), 'sqs:ReceiveMessage')).toBeDefined();
    // Metering sends only to its own work queue (the overflow of a run), never lease commands.
    expect(statementWith(statementsOf('metering'), 'sqs:SendMessage')?.Resource).toEqual({
      'Fn::GetAtt': [logicalIdOf(stack, stack.queues.queues.meteringWork.queue), 'Arn'],
    });
  });

  it('feeds metering the work a run deferred, from the metering work queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalIdOf(stack, stack.functions.metering) },
      EventSourceArn: { 'Fn::GetAtt': [logicalIdOf(stack, stack.queues.queues.meteringWork.queue), 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('expires raw usage rows through DynamoDB TTL', () => {
    const usage = template.toJSON().Resources[logicalIdOf(stack, stack.data.tables.usage)] as Resource;
    expect(usage.Properties?.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
  });

  it('feeds the lease worker from the lease-commands queue in batches of 10 with partial failures', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalIdOf(stack, stack.functions.leaseWorker) },
      EventSourceArn: { 'Fn::GetAtt': [logicalIdOf(stack, stack.queues.queues.leaseCommands.queue), 'Arn'] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });
});

/** The actions of each EC2 capability a wiring may declare: least privilege, written down. */
const EC2_CAPABILITY_ACTIONS: Record<string, readonly string[]> = {
  fleet: ['ec2:DescribeSubnets', 'ec2:DescribeLaunchTemplates'],
  spotPrices: ['ec2:DescribeSpotPriceHistory'],
  instances: ['ec2:DescribeInstances'],
  imageVersions: ['ec2:DescribeLaunchTemplateVersions', 'ec2:CreateLaunchTemplateVersion'],
  launch: ['ec2:RunInstances', 'ec2:CreateTags', 'iam:PassRole'],
  terminate: ['ec2:TerminateInstances'],
  warmStop: ['ec2:StopInstances'],
  warmStart: ['ec2:StartInstances', 'ec2:CreateTags', 'ec2:DeleteTags'],
};
const DYNAMODB_READS = new Set([
  'dynamodb:BatchGetItem',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:Query',
  'dynamodb:GetItem',
  'dynamodb:Scan',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
]);

/** Logical ids among `ids` that a statement's resources name. */
const named = (statement: Statement, ids: Record<string, string>) =>
  Object.entries(ids)
    .filter(([, id]) => JSON.stringify(statement.Resource).includes(`"${id}"`))
    .map(([name]) => name);

describe('least privilege: every grant follows from what the handler builds', () => {
  it.each(FUNCTION_NAMES)('%s is granted only what its wiring reaches', async (fn) => {
    const reaches = wiringReaches(await wiringOf(fn));
    const of = <K extends Reach['kind']>(kind: K) =>
      reaches.filter((reach): reach is Extract<Reach, { kind: K }> => reach.kind === kind);
    const tableIds = Object.fromEntries(
      Object.keys(TABLES).map((t) => [t, logicalIdOf(stack, stack.data.tables[t as keyof typeof TABLES])]),
    );
    const queueIds = Object.fromEntries(
      Object.keys(QUEUES).map((q) => [
        q,
        logicalIdOf(stack, stack.queues.queues[q as keyof typeof QUEUES].queue),
      ]),
    );
    const deadLetterIds = Object.fromEntries(
      Object.keys(QUEUES).map((q) => [
        q,
        logicalIdOf(stack, stack.queues.queues[q as keyof typeof QUEUES].deadLetterQueue),
      ]),
    );
    const topicIds = Object.fromEntries(
      Object.keys(TOPICS).map((t) => [t, logicalIdOf(stack, stack.alerts.topics[t as keyof typeof TOPICS])]),
    );
    const consumed = Object.values(resourcesOfType('AWS::Lambda::EventSourceMapping'))
      .filter((mapping) =>
        JSON.stringify(mapping.Properties?.FunctionName).includes(logicalIdOf(stack, stack.functions[fn])),
      )
      .flatMap((mapping) =>
        named({ Effect: 'Allow', Action: [], Resource: mapping.Properties?.EventSourceArn }, queueIds),
      );
    const capabilities = of('ec2').flatMap((reach) => reach.capabilities);
    const expiry = of('leaseExpiry');

    for (const statement of statementsOf(fn)) {
      for (const action of actionsOf(statement)) {
        const where = `${fn}: ${action} on ${JSON.stringify(statement.Resource)}`;
        const [service] = action.split(':');
        if (service === 'dynamodb') {
          for (const table of named(statement, tableIds)) {
            const access = of('table')
              .filter((reach) => reach.table === table)
              .map((reach) => reach.access);
            expect(access.length, where).toBeGreaterThan(0);
            if (!DYNAMODB_READS.has(action)) expect(access, where).toContain('readWrite');
          }
          expect(named(statement, tableIds).length, where).toBeGreaterThan(0);
        } else if (service === 'sqs') {
          // A dead-letter queue is reached only by a port that drains it (the reconciler's, #41).
          for (const queue of named(statement, deadLetterIds)) {
            expect(
              of('deadLetters').some((reach) => reach.queue === queue),
              where,
            ).toBe(true);
          }
          const queues = named(statement, queueIds);
          if (named(statement, deadLetterIds).length > 0 && queues.length === 0) continue;
          expect(queues.length, where).toBeGreaterThan(0);
          for (const queue of queues) {
            const sent = of('queue').some((reach) => reach.queue === queue);
            expect(
              action === 'sqs:SendMessage' ||
                action === 'sqs:GetQueueAttributes' ||
                action === 'sqs:GetQueueUrl'
                ? sent || consumed.includes(queue)
                : consumed.includes(queue),
              where,
            ).toBe(true);
          }
        } else if (service === 'sns') {
          for (const topic of named(statement, topicIds)) {
            expect(
              of('topic').some((reach) => reach.topic === topic),
              where,
            ).toBe(true);
          }
        } else if (service === 'events') {
          expect(of('eventBus').length, where).toBeGreaterThan(0);
        } else if (service === 'scheduler') {
          expect(expiry.length, where).toBeGreaterThan(0);
          if (action !== 'scheduler:DeleteSchedule')
            expect(
              expiry.map((r) => r.access),
              where,
            ).toContain('arm');
        } else if (service === 'cloudwatch') {
          expect(of('gpuMetrics').length, where).toBeGreaterThan(0);
        } else if (service === 'ssm') {
          expect(of('tasks').length, where).toBeGreaterThan(0);
        } else if (action === 'iam:PassRole') {
          const passesSender = JSON.stringify(statement.Resource).includes(
            logicalIdOf(stack, stack.leaseExpiry.senderRole),
          );
          if (passesSender)
            expect(
              expiry.map((r) => r.access),
              where,
            ).toContain('arm');
          else expect(capabilities, where).toContain('launch');
        } else if (action === 'lambda:InvokeFunction') {
          // Lambda invokes the function's on-success destination with the function's role.
          const destinations = Object.values(resourcesOfType('AWS::Lambda::EventInvokeConfig'))
            .filter(
              (config) =>
                JSON.stringify(config.Properties?.FunctionName) ===
                JSON.stringify({ Ref: logicalIdOf(stack, stack.functions[fn]) }),
            )
            .map((config) => JSON.stringify(config.Properties?.DestinationConfig ?? null));
          const target = (/"Fn::GetAtt":\["([^"]+)"/.exec(JSON.stringify(statement.Resource)) ?? [])[1] ?? '';
          expect(
            destinations.some((destination) => destination.includes(`"${target}"`)),
            where,
          ).toBe(true);
        } else if (service === 'ec2') {
          expect(
            capabilities.flatMap((c) => EC2_CAPABILITY_ACTIONS[c] ?? []),
            where,
          ).toContain(action);
        } else if (action === 'logs:GetLogEvents' || action === 'logs:FilterLogEvents') {
          expect(of('logGroup').length, where).toBeGreaterThan(0);
          expect(JSON.stringify(statement.Resource), where).toContain(
            logicalIdOf(stack, stack.tasks.taskOutput),
          );
        } else if (service === 'sts') {
          // Each role it may assume is one its wiring reaches.
          const role = JSON.stringify(statement.Resource).includes(
            logicalIdOf(stack, stack.tasks.leaseMachineRole),
          )
            ? 'leaseMachineRole'
            : 'sessionRole';
          expect(of(role).length, where).toBeGreaterThan(0);
          expect(JSON.stringify(statement.Resource), where).toContain(logicalIdOf(stack, stack.tasks[role]));
        } else if (service === 'servicequotas') {
          // Reading the GPU vCPU quotas, by their ARNs: nothing else of Service Quotas.
          expect(of('serviceQuotas').length, where).toBeGreaterThan(0);
          expect(action, where).toBe('servicequotas:GetServiceQuota');
        } else if (service === 's3') {
          // Listing the checkpoint bucket for billing: nothing else of S3, on nothing else.
          expect(of('checkpointBucket').length, where).toBeGreaterThan(0);
          expect(action, where).toBe('s3:ListBucket');
          expect(JSON.stringify(statement.Resource), where).toContain(
            logicalIdOf(stack, stack.tasks.checkpoints),
          );
        } else {
          // Tracing, the function's own log group, and the alerts topic's key.
          expect(['xray', 'logs', 'kms'], where).toContain(service);
        }
      }
    }
  });

  it('fails a function granted a table its wiring does not reach (the check can fail)', async () => {
    const reaches = wiringReaches(await wiringOf('metering'));
    expect(reaches.some((reach) => reach.kind === 'table' && reach.table === 'budgets')).toBe(false);
    const budgetsId = logicalIdOf(stack, stack.data.tables.budgets);
    expect(
      statementsOf('metering').some((statement) => JSON.stringify(statement.Resource).includes(budgetsId)),
    ).toBe(false);
  });

  it('no longer grants what the shared wiring used to require: usage reads of the evaluators, expiry rights of the reconciler', () => {
    const usageId = logicalIdOf(stack, stack.data.tables.usage);
    for (const fn of ['budgetEvaluator', 'scalingEvaluator'] as const) {
      expect(
        statementsOf(fn).some((statement) => JSON.stringify(statement.Resource).includes(usageId)),
        fn,
      ).toBe(false);
    }
    for (const fn of ['reconciler', 'interruptionHandler'] as const) {
      expect(statementWith(statementsOf(fn), 'scheduler:DeleteSchedule'), fn).toBeUndefined();
    }
  });

  it('lets the reconciler alone drain the lease-commands DLQ (receive and delete), whose URL it is given', () => {
    const dlqId = logicalIdOf(stack, stack.queues.queues.leaseCommands.deadLetterQueue);
    const draining = FUNCTION_NAMES.filter((fn) =>
      statementsOf(fn).some(
        (statement) =>
          actionsOf(statement).includes('sqs:ReceiveMessage') &&
          JSON.stringify(statement.Resource).includes(`"${dlqId}"`),
      ),
    );
    expect(draining).toEqual(['reconciler']);
    const receive = statementsOf('reconciler').find((statement) =>
      JSON.stringify(statement.Resource).includes(`"${dlqId}"`),
    );
    expect(receive && actionsOf(receive)).toEqual(expect.arrayContaining(['sqs:DeleteMessage']));
    expect(receive && actionsOf(receive)).not.toContain('sqs:SendMessage');
  });
});

describe('the capacity refresh', () => {
  it('alone may read the GPU vCPU quotas, by their ARNs in every GPU region, and only describes EC2', () => {
    for (const fn of FUNCTION_NAMES.filter((name) => name !== 'capacityRefresh')) {
      expect(
        statementsOf(fn)
          .flatMap(actionsOf)
          .filter((action) => action.startsWith('servicequotas:')),
        fn,
      ).toEqual([]);
    }
    const statements = statementsOf('capacityRefresh');
    const read = statementWith(statements, 'servicequotas:GetServiceQuota');
    expect(actionsOf(read as Statement)).toEqual(['servicequotas:GetServiceQuota']);
    const arns = JSON.stringify(read?.Resource);
    for (const code of ['L-DB2E81BA', 'L-417A185B', 'L-3819A6DF', 'L-7212CCBC']) {
      expect(arns).toContain(`:servicequotas:${stack.region}:`);
      expect(arns).toContain(`:ec2/${code}`);
    }
    expect(arns).not.toContain('*');
    const ec2 = statements.flatMap(actionsOf).filter((action) => action.startsWith('ec2:'));
    expect(ec2).toEqual(['ec2:DescribeInstances']);
  });
});

describe('the scheduled admission pass', () => {
  it('reaches the queue, the leases, the start commands and expiry cancels, and nothing of EC2 or SSM', () => {
    const statements = statementsOf('admission');
    const actions = statements.flatMap(actionsOf);
    expect(actions.filter((action) => action.startsWith('ec2:') || action.startsWith('ssm:'))).toEqual([]);
    expect(statementWith(statements, 'sqs:SendMessage')).toBeDefined();
    expect(statementWith(statements, 'scheduler:DeleteSchedule')).toBeDefined();
    expect(statementWith(statements, 'scheduler:CreateSchedule')).toBeUndefined();
    const admissionId = logicalIdOf(stack, stack.data.tables.admission);
    expect(statements.some((statement) => JSON.stringify(statement.Resource).includes(admissionId))).toBe(
      true,
    );
  });
});

describe('checkpoint permissions', () => {
  const bucketId = () => logicalIdOf(stack, stack.tasks.checkpoints);
  /** The roles of every IAM policy with a statement on the checkpoint bucket or its objects. */
  const rolesReachingCheckpoints = () =>
    Object.values(resourcesOfType('AWS::IAM::Policy'))
      .filter((policy) =>
        (
          (policy.Properties?.PolicyDocument as { Statement?: Statement[] } | undefined)?.Statement ?? []
        ).some((statement) => JSON.stringify(statement.Resource).includes(bucketId())),
      )
      .flatMap((policy) => policy.Properties?.Roles as unknown[]);

  it('leaves the instance role without any statement on the checkpoint bucket: the checkpoint role and metering (listing) are the only ones', () => {
    const roles = rolesReachingCheckpoints();
    expect(roles).toEqual(
      expect.arrayContaining([
        { Ref: logicalIdOf(stack, stack.tasks.leaseMachineRole) },
        { Ref: logicalIdOf(stack, stack.functions.metering.role) },
      ]),
    );
    expect(roles).toHaveLength(2);
    expect(roles).not.toContainEqual({ Ref: logicalIdOf(stack, stack.fleet.instanceRole) });
  });

  it('lets metering only list the checkpoint bucket (s3:ListBucket on the bucket, no object rights)', () => {
    const onBucket = statementsOf('metering').filter((statement) =>
      JSON.stringify(statement.Resource).includes(bucketId()),
    );
    expect(onBucket.flatMap(actionsOf)).toEqual(['s3:ListBucket']);
    expect(onBucket.map((statement) => statement.Resource)).toEqual([{ 'Fn::GetAtt': [bucketId(), 'Arn'] }]);
    const s3Actions = FUNCTION_NAMES.filter((fn) =>
      statementsOf(fn).some((statement) => actionsOf(statement).some((action) => action.startsWith('s3:'))),
    );
    expect(s3Actions).toEqual(['metering']);
  });

  it('lets only the functions that start attempts or refresh their credentials assume the checkpoint role, for at most an hour', () => {
    const roleId = logicalIdOf(stack, stack.tasks.leaseMachineRole);
    const assuming = FUNCTION_NAMES.filter((fn) =>
      statementsOf(fn).some(
        (statement) =>
          actionsOf(statement).includes('sts:AssumeRole') &&
          JSON.stringify(statement.Resource).includes(roleId),
      ),
    );
    expect(assuming.sort()).toEqual(['leaseWorker', 'reconciler', 'taskEvents']);
    const role = resourcesOfType('AWS::IAM::Role')[roleId];
    expect(role?.Properties?.MaxSessionDuration).toBe(3600);
  });
});

describe('EC2 permissions', () => {
  it('lets the lease worker launch only from the gpurent launch template', () => {
    const run = statementWith(statementsOf('leaseWorker'), 'ec2:RunInstances');
    const launchTemplateId = logicalIdOf(stack, stack.fleet.launchTemplate);
    expect(run?.Condition?.ArnLike?.['ec2:LaunchTemplate']).toBeDefined();
    expect(JSON.stringify(run?.Condition)).toContain(launchTemplateId);
    const resources = JSON.stringify(run?.Resource);
    for (const part of [
      ':launch-template/',
      ':subnet/',
      ':security-group/',
      '::image/*',
      ':instance/*',
      ':volume/*',
      ':network-interface/*',
    ]) {
      expect(resources).toContain(part);
    }
  });

  it('lets the lease worker tag only while creating, and pass only the instance role to EC2', () => {
    const statements = statementsOf('leaseWorker');
    expect(statementWith(statements, 'ec2:CreateTags')?.Condition).toEqual({
      StringEquals: { 'ec2:CreateAction': 'RunInstances' },
    });
    const passRole = statementWith(statements, 'iam:PassRole');
    expect(passRole?.Resource).toEqual({
      'Fn::GetAtt': [logicalIdOf(stack, stack.fleet.instanceRole), 'Arn'],
    });
    expect(passRole?.Condition).toEqual({ StringEquals: { 'iam:PassedToService': 'ec2.amazonaws.com' } });
    expect(statementWith(statements, 'ec2:DescribeSpotPriceHistory')).toBeDefined();
  });

  it.each(['leaseWorker', 'reconciler', 'taskEvents'] as const)(
    '%s terminates only instances tagged gpurent:managed=true',
    (fn) => {
      const terminate = statementWith(statementsOf(fn), 'ec2:TerminateInstances');
      expect(terminate?.Condition).toEqual({ StringEquals: { 'aws:ResourceTag/gpurent:managed': 'true' } });
      expect(JSON.stringify(terminate?.Resource)).toContain(':instance/*');
      expect(statementWith(statementsOf(fn), 'ec2:DescribeInstances')).toBeDefined();
    },
  );

  it('gives no EC2 rights to metering, only fleet and spot-price reads to the API, and no launch rights to the reconciler', () => {
    const ec2Actions = (fn: keyof GpurentStack['functions']) =>
      statementsOf(fn)
        .flatMap(actionsOf)
        .filter((action) => action.startsWith('ec2:'))
        .sort();
    expect(ec2Actions('metering')).toEqual([]);
    expect(ec2Actions('api')).toEqual([
      'ec2:CreateLaunchTemplateVersion',
      'ec2:DescribeLaunchTemplateVersions',
      'ec2:DescribeLaunchTemplates',
      'ec2:DescribeSpotPriceHistory',
      'ec2:DescribeSubnets',
    ]);
    expect(statementWith(statementsOf('reconciler'), 'ec2:RunInstances')).toBeUndefined();
  });

  it('lets the warm-pool filler stop managed instances and never start one; only the lease worker starts them', () => {
    const stop = statementWith(statementsOf('warmPoolFiller'), 'ec2:StopInstances');
    expect(stop?.Condition).toEqual({ StringEquals: { 'aws:ResourceTag/gpurent:managed': 'true' } });
    expect(statementWith(statementsOf('warmPoolFiller'), 'ec2:StartInstances')).toBeUndefined();
    const start = statementWith(statementsOf('leaseWorker'), 'ec2:StartInstances');
    expect(start?.Condition).toEqual({ StringEquals: { 'aws:ResourceTag/gpurent:managed': 'true' } });
  });
});

describe('scaling and GPU telemetry permissions', () => {
  it('lets the evaluator, the API and the audit read metrics with cloudwatch:GetMetricData only', () => {
    for (const fn of ['scalingEvaluator', 'api', 'audit'] as const) {
      const cloudWatch = statementsOf(fn)
        .flatMap(actionsOf)
        .filter((action) => action.startsWith('cloudwatch:'));
      expect(cloudWatch).toEqual(['cloudwatch:GetMetricData']);
    }
    // It places members like any lease: EC2 reads only.
    expect(
      statementsOf('scalingEvaluator')
        .flatMap(actionsOf)
        .filter((a) => a.startsWith('ec2:') && !a.startsWith('ec2:Describe')),
    ).toEqual([]);
    expect(statementWith(statementsOf('scalingEvaluator'), 'sqs:SendMessage')).toBeDefined();
  });
});

describe('GPU fleet', () => {
  it('launch template: IMDSv2 only, encrypted gp3 root volume, AMI from the public SSM parameter', () => {
    template.hasResourceProperties('AWS::EC2::LaunchTemplate', {
      LaunchTemplateData: Match.objectLike({
        MetadataOptions: Match.objectLike({ HttpTokens: 'required' }),
        BlockDeviceMappings: [
          { DeviceName: '/dev/sda1', Ebs: Match.objectLike({ Encrypted: true, VolumeType: 'gp3' }) },
        ],
        ImageId: { Ref: Match.stringLikeRegexp('^SsmParameterValue') },
      }),
    });
    const parameters = Object.values(
      template.toJSON().Parameters as Record<string, { Type: string; Default: string }>,
    );
    expect(parameters).toContainEqual({
      Type: 'AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>',
      Default: GPU_AMI_SSM_PARAMETER,
    });
  });

  it('security group has no ingress', () => {
    const groups = Object.values(resourcesOfType('AWS::EC2::SecurityGroup'));
    expect(groups).toHaveLength(1);
    expect(groups[0]?.Properties?.SecurityGroupIngress).toBeUndefined();
    template.resourceCountIs('AWS::EC2::SecurityGroupIngress', 0);
  });
});

describe('lease expiry', () => {
  const scheduleArn = (statement: Statement) => JSON.stringify(statement.Resource);

  it('has a fixed schedule group and a role only EventBridge Scheduler assumes, which may send lease commands', () => {
    template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: 'gpurent-lease-expiry' });
    const role = resourcesOfType('AWS::IAM::Role')[logicalIdOf(stack, stack.leaseExpiry.senderRole)];
    expect(JSON.stringify(role?.Properties?.AssumeRolePolicyDocument)).toContain('scheduler.amazonaws.com');
    const sends = Object.values(resourcesOfType('AWS::IAM::Policy')).find(
      (policy) =>
        JSON.stringify(policy.Properties?.Roles) ===
        JSON.stringify([{ Ref: logicalIdOf(stack, stack.leaseExpiry.senderRole) }]),
    );
    expect(JSON.stringify(sends?.Properties?.PolicyDocument)).toContain('sqs:SendMessage');
  });

  it('lets the API arm and delete lease schedules and pass the sender role; the worker only delete', () => {
    const senderRoleId = logicalIdOf(stack, stack.leaseExpiry.senderRole);
    const passesSender = (fn: keyof GpurentStack['functions']) =>
      statementsOf(fn).some(
        (statement) =>
          actionsOf(statement).includes('iam:PassRole') && scheduleArn(statement).includes(senderRoleId),
      );
    const api = statementsOf('api');
    expect(scheduleArn(statementWith(api, 'scheduler:CreateSchedule') as Statement)).toContain(
      'schedule/gpurent-lease-expiry/*',
    );
    expect(passesSender('api')).toBe(true);
    expect(statementWith(statementsOf('leaseWorker'), 'scheduler:DeleteSchedule')).toBeDefined();
    expect(statementWith(statementsOf('leaseWorker'), 'scheduler:CreateSchedule')).toBeUndefined();
    expect(passesSender('leaseWorker')).toBe(false);
  });
});

describe('operations: dashboard and alarms', () => {
  const alarms = () => Object.values(resourcesOfType('AWS::CloudWatch::Alarm'));
  const operatorTopic = () => ({ Ref: logicalIdOf(stack, stack.alerts.topics.operatorAlerts) });
  const dimensionOf = (alarm: Resource, name: string) =>
    (alarm.Properties?.Dimensions as { Name: string; Value: unknown }[] | undefined)?.find(
      (d) => d.Name === name,
    )?.Value;

  it('sends every alarm, and its recovery, to the operator topic', () => {
    expect(alarms().length).toBeGreaterThan(0);
    for (const alarm of alarms()) {
      expect(alarm.Properties?.AlarmActions).toEqual([operatorTopic()]);
      expect(alarm.Properties?.OKActions).toEqual([operatorTopic()]);
    }
  });

  it('has exactly one alarm per dead-letter queue', () => {
    for (const queue of stack.queues.all) {
      const queueName = { 'Fn::GetAtt': [logicalIdOf(stack, queue.deadLetterQueue), 'QueueName'] };
      const onIt = alarms().filter(
        (alarm) => JSON.stringify(dimensionOf(alarm, 'QueueName')) === JSON.stringify(queueName),
      );
      expect(onIt.map((alarm) => alarm.Properties?.MetricName)).toEqual([
        'ApproximateNumberOfMessagesVisible',
      ]);
    }
  });

  it('has one errors alarm and one throttles alarm on every function of the stack (none forgotten)', () => {
    for (const [name, fn] of Object.entries(stack.functions)) {
      const onIt = alarms().filter(
        (alarm) =>
          JSON.stringify(dimensionOf(alarm, 'FunctionName')) ===
          JSON.stringify({ Ref: logicalIdOf(stack, fn) }),
      );
      expect(onIt.map((alarm) => alarm.Properties?.MetricName).sort(), name).toEqual(['Errors', 'Throttles']);
    }
  });

  it('alarms on metering lag (missing data breaches) and on orphans the reconciler found', () => {
    const byMetric = (metricName: string) =>
      alarms().filter((alarm) => alarm.Properties?.MetricName === metricName);
    expect(byMetric('MeteringLag')).toHaveLength(1);
    expect(byMetric('MeteringLag')[0]?.Properties).toMatchObject({
      Namespace: 'gpurent',
      Threshold: 120,
      TreatMissingData: 'breaching',
      EvaluationPeriods: 3,
    });
    expect(byMetric('OrphansTerminated')).toHaveLength(1);
    expect(byMetric('OrphansTerminated')[0]?.Properties).toMatchObject({
      Namespace: 'gpurent',
      Threshold: 1,
    });
  });

  it('has a dashboard with every operator view, every function and every dead-letter queue', () => {
    const dashboards = Object.values(resourcesOfType('AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(stack.resolve(dashboards[0]?.Properties?.DashboardBody));
    for (const title of [
      'Leases by state',
      'GPUs by mode and region',
      'Spend rate',
      'Time to RUNNING',
      'Launch failures by mode and code',
      'Dead-letter queue depths',
      'Metering lag',
      'Scaling decisions',
      'Budget alerts and actions',
    ]) {
      expect(body).toContain(title);
    }
    for (const metric of [
      'RunningLeases',
      'RunningGpus',
      'MeteredMicroUsd',
      'TimeToRunning',
      'LaunchFailures',
    ]) {
      expect(body).toContain(metric);
    }
    for (const fn of Object.values(stack.functions)) expect(body).toContain(logicalIdOf(stack, fn));
    for (const queue of stack.queues.all) expect(body).toContain(logicalIdOf(stack, queue.deadLetterQueue));
  });
});
