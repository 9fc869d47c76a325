import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CloudFormationClient,
  CreateStackCommand,
  DescribeStacksCommand,
  paginateListStackResources,
} from '@aws-sdk/client-cloudformation';
import { DescribeImagesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { App } from 'aws-cdk-lib';
import { addGpurentStack } from '../infra/gpurent-stack';

/**
 * Resource types of the stack that moto's CloudFormation does not create, and
 * why that is acceptable for a rehearsal. A test keeps this list equal to what
 * the rehearsal finds, so it cannot grow unnoticed.
 */
export const MOTO_UNSUPPORTED_RESOURCE_TYPES: Readonly<Record<string, string>> = {
  'AWS::ApiGatewayV2::Api':
    'moto 5.2 has no CloudFormation model for HTTP APIs (the local runtime plays API Gateway)',
  'AWS::ApiGatewayV2::Authorizer': 'no CloudFormation model for HTTP API authorizers in moto',
  'AWS::ApiGatewayV2::Integration': 'no CloudFormation model for HTTP API integrations in moto',
  'AWS::ApiGatewayV2::Route': 'no CloudFormation model for HTTP API routes in moto',
  'AWS::ApiGatewayV2::Stage': 'no CloudFormation model for HTTP API stages in moto',
  'AWS::CloudWatch::Alarm': 'no CloudFormation model for alarms in moto (CDK tests check every alarm)',
  'AWS::Cognito::UserPool':
    'no CloudFormation model for user pools in moto (the local runtime issues its own tokens)',
  'AWS::Cognito::UserPoolClient': 'no CloudFormation model for user pool clients in moto',
  'AWS::Cognito::UserPoolGroup': 'no CloudFormation model for user pool groups in moto',
  'AWS::Lambda::EventInvokeConfig': 'no CloudFormation model in moto (retries and on-success destinations)',
  'AWS::S3::BucketPolicy':
    "no CloudFormation model in moto (the checkpoint bucket's TLS-only policy; CDK tests and cdk-nag check it)",
  'AWS::SNS::TopicPolicy': 'no CloudFormation model in moto (resource policies are not evaluated there)',
  'AWS::SQS::QueuePolicy': 'no CloudFormation model in moto (resource policies are not evaluated there)',
  'AWS::Scheduler::Schedule': 'no CloudFormation model in moto (the local runtime fires the schedules)',
  'AWS::Scheduler::ScheduleGroup':
    'no CloudFormation model in moto (the local bootstrap creates the group by API)',
  'Custom::VpcRestrictDefaultSG':
    'a custom resource: moto runs its Lambda handler only in Docker and would wait for it forever, so the rehearsal leaves it out',
};

export interface RehearsalResult {
  readonly stackStatus: string;
  readonly statusReason?: string;
  /** Resource types moto created, with how many of each. */
  readonly created: Readonly<Record<string, number>>;
  /** Resource types in the template that moto did not create. */
  readonly notCreated: readonly string[];
}

const ACCOUNT = '123456789012';

/**
 * Synthesizes the stack as `cdk deploy` would (cdk.json context, cdk-nag), then
 * does what deploy does against moto's CloudFormation: publishes the function
 * assets to the bootstrap bucket, provides the SSM parameters the template
 * reads, creates the stack, and reports what moto created and did not.
 */
export async function rehearseDeploy(motoUrl: string, region = 'us-east-1'): Promise<RehearsalResult> {
  const outdir = mkdtempSync(join(tmpdir(), 'gpurent-rehearsal-'));
  try {
    const config = {
      endpoint: motoUrl,
      region,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    };
    // moto reserves /aws/service/* SSM names, so the GPU AMI is pinned (-c gpuAmiId) to one moto has.
    const gpuAmiId = (await new EC2Client(config).send(new DescribeImagesCommand({ Owners: ['amazon'] })))
      .Images?.[0]?.ImageId;
    const context = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')).context;
    const app = new App({ outdir, context: { ...context, region, gpuAmiId } });
    const stack = addGpurentStack(app);
    const assembly = app.synth();
    const artifact = assembly.getStackByName(stack.stackName);
    const template = artifact.template as Template & { Parameters?: object };

    await publishAssets(new S3Client({ ...config, forcePathStyle: true }), outdir, region);
    await provideParameters(new SSMClient(config), template.Parameters ?? {});

    // moto creates the whole stack inside the CreateStack call: never retry it into "already exists".
    const cloudFormation = new CloudFormationClient({ ...config, maxAttempts: 1 });
    await cloudFormation.send(
      new CreateStackCommand({
        StackName: stack.stackName,
        TemplateBody: JSON.stringify(withMotoWorkarounds(template)),
        Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM'],
      }),
    );
    const described = (await cloudFormation.send(new DescribeStacksCommand({ StackName: stack.stackName })))
      .Stacks?.[0];
    const created: Record<string, number> = {};
    for await (const page of paginateListStackResources(
      { client: cloudFormation },
      { StackName: stack.stackName },
    )) {
      for (const resource of page.StackResourceSummaries ?? []) {
        if (!resource.ResourceType || resource.ResourceStatus !== 'CREATE_COMPLETE') continue;
        created[resource.ResourceType] = (created[resource.ResourceType] ?? 0) + 1;
      }
    }
    const templateTypes = new Set(Object.values(template.Resources).map((resource) => resource.Type));
    return {
      stackStatus: described?.StackStatus ?? 'UNKNOWN',
      statusReason: described?.StackStatusReason,
      created,
      notCreated: [...templateTypes].filter((type) => !(type in created)).sort(),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

type Template = {
  Resources: Record<string, { Type: string; Properties?: { Tags?: unknown }; DependsOn?: string | string[] }>;
};

/**
 * What the rehearsal changes in its copy of the template (the template `cdk
 * deploy` sends is untouched): custom resources are left out, because moto runs
 * their Lambda handlers only in Docker and waits for their answer forever; and
 * moto's KMS tagging expects `TagKey`/`TagValue` where AWS::KMS::Key has `Key`/`Value`;
 * and moto skips alarms, so what reads an alarm's ARN (the dashboard's alarm
 * status widget) gets the ARN the alarm would have.
 */
function withMotoWorkarounds<T extends Template>(template: T): T {
  const alarms = new Set(
    Object.entries(template.Resources)
      .filter(([, resource]) => resource.Type === 'AWS::CloudWatch::Alarm')
      .map(([id]) => id),
  );
  const copy = withAlarmArnsSpelledOut(structuredClone(template), alarms);
  const custom = new Set(
    Object.entries(copy.Resources)
      .filter(([, resource]) => resource.Type.startsWith('Custom::'))
      .map(([id]) => id),
  );
  for (const id of custom) delete copy.Resources[id];
  for (const resource of Object.values(copy.Resources)) {
    if (resource.Type === 'AWS::KMS::Key' && resource.Properties) delete resource.Properties.Tags;
    if (resource.DependsOn !== undefined) {
      resource.DependsOn = [resource.DependsOn].flat().filter((id) => !custom.has(id));
    }
  }
  return copy;
}

/** Every `Fn::GetAtt: [<alarm>, Arn]` in `node` replaced by that alarm's ARN, spelled out. */
function withAlarmArnsSpelledOut<N>(node: N, alarms: ReadonlySet<string>): N {
  if (Array.isArray(node)) return node.map((item) => withAlarmArnsSpelledOut(item, alarms)) as N;
  if (node === null || typeof node !== 'object') return node;
  const getAtt = (node as Record<string, unknown>)['Fn::GetAtt'];
  if (Array.isArray(getAtt) && alarms.has(String(getAtt[0])) && getAtt[1] === 'Arn') {
    return {
      'Fn::Sub': `arn:\${AWS::Partition}:cloudwatch:\${AWS::Region}:\${AWS::AccountId}:alarm:${getAtt[0]}`,
    } as N;
  }
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, withAlarmArnsSpelledOut(value, alarms)]),
  ) as N;
}

interface AssetManifest {
  files: Record<
    string,
    {
      source: { path: string; packaging?: string };
      destinations: Record<string, { bucketName: string; objectKey: string }>;
    }
  >;
}

/** What `cdk deploy` publishes: each file asset, zipped, into the bootstrap bucket. */
async function publishAssets(s3: S3Client, outdir: string, region: string) {
  const manifestName = readdirSync(outdir).find((name) => name.endsWith('.assets.json'));
  const manifest = JSON.parse(readFileSync(join(outdir, manifestName ?? ''), 'utf8')) as AssetManifest;
  const buckets = new Set<string>();
  for (const asset of Object.values(manifest.files)) {
    for (const destination of Object.values(asset.destinations)) {
      // The asset manifest's CloudFormation-style placeholders, filled as cdk-assets does.
      const bucket = destination.bucketName
        .replace(/\$\{AWS::AccountId\}/, ACCOUNT)
        .replace(/\$\{AWS::Region\}/, region);
      if (!buckets.has(bucket)) {
        await s3.send(new CreateBucketCommand({ Bucket: bucket }));
        buckets.add(bucket);
      }
      await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: destination.objectKey,
          Body: packaged(outdir, asset.source),
        }),
      );
    }
  }
}

/** A directory asset as the zip CDK would upload (Python's zipfile: moto needs Python anyway). */
function packaged(outdir: string, source: { path: string; packaging?: string }): Buffer {
  const path = join(outdir, source.path);
  if (source.packaging !== 'zip') return readFileSync(path);
  const zip = join(outdir, `${source.path}.zip`);
  execFileSync('python3', ['-m', 'zipfile', '-c', zip, ...readdirSync(path)], { cwd: path });
  return readFileSync(zip);
}

/** SSM-typed parameters resolve from moto's SSM: the CDK bootstrap version. */
async function provideParameters(ssm: SSMClient, parameters: object) {
  for (const parameter of Object.values(parameters) as { Type: string; Default?: string }[]) {
    if (!parameter.Type.startsWith('AWS::SSM::Parameter::Value') || !parameter.Default) continue;
    await ssm.send(
      new PutParameterCommand({ Name: parameter.Default, Value: '30', Type: 'String', Overwrite: true }),
    );
  }
}
