import { beforeAll, describe, expect, it } from 'vitest';
import { OPEN_LEASES_INDEX, WAITING_LEASES_INDEX } from '../../shared/resources';
import { SYNTH_TIMEOUT_MS, type SynthesizedGpurent, synthesizeGpurent } from './support/synth';

const existing = {
  region: 'eu-west-1',
  userPoolId: 'eu-west-1_AbC123',
  vpcId: 'vpc-0abc12345def67890',
  vpcSubnets: 'subnet-0abc1234:eu-west-1a,subnet-0def5678:eu-west-1b',
  operatorEmail: 'ops@example.com',
  gpuRegions: 'eu-west-1',
  // The first of an upgrade's two deploys (README, "Upgrading"); synthesized with the rest, one synth.
  holdBackIndexes: OPEN_LEASES_INDEX,
};

let synthesized: SynthesizedGpurent;

beforeAll(() => {
  // What the existing pool and VPC change is in the templates; the default synth bundles the code.
  synthesized = synthesizeGpurent(existing, { bundle: false });
}, SYNTH_TIMEOUT_MS);

describe('deploying into an existing user pool and VPC', () => {
  it('synthesizes (cdk-nag included) in the home region without creating a pool or a VPC', () => {
    expect(synthesized.synthError).toBeUndefined();
    const template = synthesized.template();
    expect(synthesized.stack.region).toBe('eu-west-1');
    template.resourceCountIs('AWS::Cognito::UserPool', 0);
    template.resourceCountIs('AWS::EC2::VPC', 0);
    template.resourceCountIs('AWS::EC2::FlowLog', 0);
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', { UserPoolId: existing.userPoolId });
    template.hasResourceProperties('AWS::Cognito::UserPoolGroup', {
      GroupName: 'admin',
      UserPoolId: existing.userPoolId,
    });
    template.hasResourceProperties('AWS::EC2::SecurityGroup', { VpcId: existing.vpcId });
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: existing.operatorEmail,
    });
  });

  it('finds its fleet by the fleet tag (the given subnets must carry it, see README)', () => {
    const variables = Object.values(synthesized.template().findResources('AWS::Lambda::Function'))
      .map((fn) => (fn.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>)
      .filter((v) => v.FLEET_NAME !== undefined);
    expect(variables.length).toBeGreaterThan(0);
    for (const v of variables) expect(v.FLEET_NAME).toBe('gpurent');
  });
});

describe('an upgrade that adds two indexes to one table, in two deploys', () => {
  it('holds back the named index and creates the others', () => {
    const tables = Object.values(synthesized.template().findResources('AWS::DynamoDB::Table'));
    const indexesOf = (table: (typeof tables)[number]) =>
      ((table.Properties?.GlobalSecondaryIndexes ?? []) as { IndexName: string }[]).map((i) => i.IndexName);
    const leases = tables.find((table) => indexesOf(table).includes(WAITING_LEASES_INDEX));
    expect(leases).toBeDefined();
    expect(indexesOf(leases as (typeof tables)[number])).not.toContain(OPEN_LEASES_INDEX);
  });
});

describe('bad context fails the synth naming the value', () => {
  it.each([
    [{ operatorEmail: 'not-an-address' }, /context value "operatorEmail" must be an e-mail address/],
    [{ vpcId: 'vpc-0abc12345def67890' }, /context value "vpcSubnets".*go together/],
    [{ region: 'us-east-1', gpuRegions: 'us-west-2,us-west-2' }, /"gpuRegions".*us-west-2 is listed twice/],
  ])('%j', (context, message) => {
    expect(() => synthesizeGpurent(context)).toThrow(message);
  });
});
