import { DescribeImagesCommand, DescribeLaunchTemplateVersionsCommand, EC2Client } from '@aws-sdk/client-ec2';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchTemplateName } from '../../local/bootstrap';
import { apiEvent } from '../../local/runtime/api-event';
import { lambdaContext } from '../../local/runtime/lambda-context';
import { LEASE_TAG } from '../../shared/ports/compute';
import type { LeaseRepository } from '../../shared/ports/lease-repository';
import { awsProbe } from '../support/aws';
import { storesOf, useFreshResources } from '../support/function-env';
import { commandRecord, storedLease } from '../support/leases';

let env: Record<string, string>;
let api: typeof import('../../functions/api/handler').handler;
let worker: typeof import('../../functions/lease-worker/handler').handler;
let leases: LeaseRepository;
/** Two real emulator AMIs per region: moto launches only images it knows. */
const amis: Record<string, string[]> = {};

beforeAll(async () => {
  env = await useFreshResources();
  ({ handler: api } = await import('../../functions/api/handler'));
  ({ handler: worker } = await import('../../functions/lease-worker/handler'));
  ({ leases } = await storesOf(env));
  for (const region of ['us-east-1', 'us-west-2']) {
    const images = await new EC2Client({ region }).send(new DescribeImagesCommand({ Owners: ['amazon'] }));
    amis[region] = (images.Images ?? [])
      .map((image) => image.ImageId ?? '')
      .filter((id) => /^ami-([0-9a-f]{8}|[0-9a-f]{17})$/.test(id))
      .slice(0, 2);
  }
});

async function admin(routeKey: string, params: Record<string, string>, body?: unknown, groups = '[admin]') {
  const [, template = ''] = routeKey.split(' ');
  const result = (await api(
    apiEvent({
      routeKey,
      path: template.replace(/\{(\w+)\}/g, (_m, name: string) => params[name] ?? ''),
      headers: { 'content-type': 'application/json', 'idempotency-key': `k-${Math.random()}` },
      pathParameters: params,
      body: body === undefined ? undefined : JSON.stringify(body),
      claims: { sub: 'op', 'custom:tenant': 'ops', 'cognito:groups': groups },
    }),
    lambdaContext('api', 29_000),
  )) as APIGatewayProxyStructuredResultV2;
  return { status: result.statusCode, body: result.body ? JSON.parse(result.body) : undefined };
}

const ami = (region: string, index: number) => amis[region]?.[index] ?? '';
const register = (version: string, index: number) =>
  admin(
    'PUT /v1/admin/images/{name}/versions/{version}',
    { name: 'gpu', version },
    {
      amis: { 'us-east-1': ami('us-east-1', index), 'us-west-2': ami('us-west-2', index) },
    },
  );

async function launchedImage(image?: string): Promise<string | undefined> {
  const lease = await storedLease(leases, { tenantId: 'tenant-img', image });
  await worker({ Records: [commandRecord('provision', lease)] }, lambdaContext('lease-worker', 60_000));
  const [instance] = await awsProbe().instancesTagged(LEASE_TAG, lease.leaseId);
  return instance?.ImageId;
}

const imageRows = async () =>
  (await awsProbe().scan(env.LEASES_TABLE_NAME ?? '')).filter((r) => String(r.pk) === 'IMAGES');

describe('image versions', () => {
  it.each([
    [
      'a name outside [a-z0-9._-]{1,64}',
      { name: 'GPU!', version: 'v1' },
      { amis: { 'us-east-1': 'ami-0123456789abcdef0' } },
      'INVALID_IMAGE_NAME',
    ],
    [
      'a version too long',
      { name: 'gpu', version: 'v'.repeat(65) },
      { amis: { 'us-east-1': 'ami-0123456789abcdef0' } },
      'INVALID_IMAGE_NAME',
    ],
    [
      'an AMI id that is not ami- + hex',
      { name: 'gpu', version: 'v9' },
      { amis: { 'us-east-1': 'ami-notanami' } },
      'VALIDATION_FAILED',
    ],
    [
      'a region without a fleet',
      { name: 'gpu', version: 'v9' },
      { amis: { 'eu-west-1': 'ami-0123456789abcdef0' } },
      'UNKNOWN_REGION',
    ],
    ['no AMI at all', { name: 'gpu', version: 'v9' }, { amis: {} }, 'VALIDATION_FAILED'],
  ])('refuses %s with 400 and writes nothing', async (_case, params, body, code) => {
    const response = await admin('PUT /v1/admin/images/{name}/versions/{version}', params, body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
    expect(await imageRows()).toEqual([]);
  });

  it('refuses tenants', async () => {
    const response = await admin('POST /v1/admin/images/{name}/rollback', { name: 'gpu' }, undefined, '');
    expect(response.status).toBe(403);
  });

  it('launches the promoted version, a pinned one on request, and the previous one after a rollback', async () => {
    expect(amis['us-east-1']).toHaveLength(2);
    // Before any version is promoted, the fleet's base AMI.
    const base = await launchedImage();
    const v1 = await register('v1', 0);
    expect(v1.status).toBe(200);
    expect((await register('v1', 0)).status).toBe(200); // the same again is harmless
    expect((await register('v1', 1)).body.error.code).toBe('IMAGE_VERSION_EXISTS');
    expect((await register('v2', 1)).status).toBe(200);

    // The launch template version: the AMI, IMDSv2 required, every volume encrypted.
    const ltVersion = v1.body.launchTemplateVersions['us-east-1'];
    const described = await new EC2Client({ region: 'us-east-1' }).send(
      new DescribeLaunchTemplateVersionsCommand({
        LaunchTemplateName: launchTemplateName(env.FLEET_NAME ?? ''),
        Versions: [ltVersion],
      }),
    );
    const data = described.LaunchTemplateVersions?.[0]?.LaunchTemplateData;
    expect(data?.ImageId).toBe(ami('us-east-1', 0));
    expect(data?.MetadataOptions?.HttpTokens).toBe('required');
    expect(data?.BlockDeviceMappings?.every((m) => m.Ebs?.Encrypted === true)).toBe(true);

    expect(
      (await admin('POST /v1/admin/images/{name}/versions/{version}/promote', { name: 'gpu', version: 'v1' }))
        .status,
    ).toBe(200);
    expect(await launchedImage()).toBe(ami('us-east-1', 0));
    const promoted = await admin('POST /v1/admin/images/{name}/versions/{version}/promote', {
      name: 'gpu',
      version: 'v2',
    });
    expect(promoted.body).toMatchObject({ current: 'v2', previous: 'v1' });
    expect(await launchedImage()).toBe(ami('us-east-1', 1));
    expect(await launchedImage('gpu:v1')).toBe(ami('us-east-1', 0));

    const rolledBack = await admin('POST /v1/admin/images/{name}/rollback', { name: 'gpu' });
    expect(rolledBack.body).toMatchObject({ current: 'v1' });
    expect(rolledBack.body.note).toBe(
      'new launches use gpu:v1; running instances keep the AMI they started from',
    );
    expect(await launchedImage()).toBe(ami('us-east-1', 0));
    expect((await admin('POST /v1/admin/images/{name}/rollback', { name: 'gpu' })).body.error.code).toBe(
      'NOTHING_TO_ROLL_BACK',
    );
    expect(base).not.toBe(ami('us-east-1', 1));
  });

  it('refuses a lease pinned to an unknown version with 400, writing nothing', async () => {
    const result = (await api(
      apiEvent({
        routeKey: 'POST /v1/leases',
        path: '/v1/leases',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'key-image-unknown-1' },
        body: JSON.stringify({ workload: 'training', gpus: 1, image: 'gpu:v404' }),
        claims: { sub: 'u', 'custom:tenant': 'tenant-img-bad' },
      }),
      lambdaContext('api', 29_000),
    )) as APIGatewayProxyStructuredResultV2;
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body ?? '{}').error.code).toBe('UNKNOWN_IMAGE');
    expect((await leases.list('tenant-img-bad', 10)).leases).toEqual([]);
  });
});
