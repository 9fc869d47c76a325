import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GpurentFleetStack } from '../../infra/fleet-stack';
import { parseGpuRegions } from '../../infra/gpu-regions';
import { fleetStackName } from '../../infra/gpurent-stack';
import { cfnLint, renderMatch } from './support/cfn-lint';
import { SYNTH_TIMEOUT_MS, type SynthesizedGpurent, synthesizeGpurent } from './support/synth';

describe('gpuRegions context', () => {
  it('puts the home region first and keeps the others in order', () => {
    expect(parseGpuRegions('us-west-2,us-east-1,eu-west-1', 'us-east-1')).toEqual([
      'us-east-1',
      'us-west-2',
      'eu-west-1',
    ]);
    expect(parseGpuRegions(undefined, 'us-east-1')).toEqual(['us-east-1']);
  });

  it.each([
    ['mars-north-1x', /mars-north-1x is not an AWS region name/],
    ['us-west-2,us-west-2', /us-west-2 is listed twice/],
    ['xx-nowhere-1', /xx-nowhere-1 has no GPU instance prices in the catalog/],
  ])('refuses %s at synth, saying what is wrong', (value, message) => {
    expect(() => parseGpuRegions(value, 'us-east-1')).toThrow(message);
    expect(() => synthesizeGpurent({ gpuRegions: value }).template()).toThrow(/context value "gpuRegions"/);
  });
});

describe('a second GPU region', () => {
  let gpurent: SynthesizedGpurent;
  let fleet: GpurentFleetStack;
  let fleetTemplate: Template;

  beforeAll(() => {
    // What a second region changes is in the templates; the default synth bundles the code.
    gpurent = synthesizeGpurent({ gpuRegions: 'us-west-2' }, { bundle: false });
    fleet = gpurent.app.node.findChild(fleetStackName('us-west-2')) as GpurentFleetStack;
    fleetTemplate = Template.fromStack(fleet);
  }, SYNTH_TIMEOUT_MS);

  it('gets its own fleet stack there: subnets in several zones and a launch template, tagged with the fleet', () => {
    expect(gpurent.synthError).toBeUndefined();
    expect(fleet.region).toBe('us-west-2');
    expect(Object.keys(fleetTemplate.findResources('AWS::EC2::Subnet')).length).toBeGreaterThanOrEqual(2);
    const [launchTemplate] = Object.values(fleetTemplate.findResources('AWS::EC2::LaunchTemplate'));
    const specs = launchTemplate?.Properties.TagSpecifications as {
      ResourceType: string;
      Tags: { Key: string; Value: string }[];
    }[];
    expect(specs.find((spec) => spec.ResourceType === 'launch-template')?.Tags).toContainEqual({
      Key: 'gpurent:fleet',
      Value: 'gpurent',
    });
    expect(launchTemplate?.Properties.LaunchTemplateData.MetadataOptions.HttpTokens).toBe('required');
    fleetTemplate.hasResourceProperties('AWS::IAM::Role', { RoleName: 'gpurent-gpu-instance-us-west-2' });
  });

  it('forwards its EC2 instance events to the home region’s default bus', () => {
    const [rule] = Object.values(fleetTemplate.findResources('AWS::Events::Rule'));
    expect(rule?.Properties.EventPattern.source).toEqual(['aws.ec2']);
    expect(JSON.stringify(rule?.Properties.Targets[0].Arn)).toContain(':events:us-east-1:');
    expect(JSON.stringify(rule?.Properties.Targets[0].Arn)).toContain('event-bus/default');
  });

  it('tells the functions both regions and lets the worker launch only from fleet-tagged templates there', () => {
    const template = gpurent.template();
    const worker = gpurent.stack.functions.leaseWorker;
    const fn = template.toJSON().Resources[gpurent.stack.getLogicalId(worker.node.defaultChild as never)];
    expect(fn.Properties.Environment.Variables.GPU_REGIONS).toBe('us-east-1,us-west-2');
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
    expect(policies).toContain(':ec2:us-west-2:');
    expect(policies).toContain('"aws:ResourceTag/gpurent:fleet":"gpurent"');
    expect(policies).toContain('role/gpurent-gpu-instance-us-west-2');
  });

  // #41: an image ARN with the account in it matches no AMI, and every launch in the region was refused.
  it('lets the worker run there from any AMI of the region: image ARNs carry no account', () => {
    const statements = Object.values(gpurent.template().findResources('AWS::IAM::Policy')).flatMap(
      (policy) => policy.Properties.PolicyDocument.Statement as { Action: unknown; Resource: unknown }[],
    );
    const imageArns = statements
      .filter((statement) => JSON.stringify(statement.Action).includes('ec2:RunInstances'))
      .flatMap((statement) => [statement.Resource].flat())
      .map((resource) => JSON.stringify(resource))
      .filter((resource) => resource.includes(':image/'));
    const remote = imageArns.filter((resource) => resource.includes(':ec2:us-west-2:'));
    expect(remote.length).toBeGreaterThan(0);
    for (const resource of remote) expect(resource).toContain(':ec2:us-west-2::image/*');
    expect(imageArns.filter((resource) => resource.includes('AWS::AccountId'))).toEqual([]);
  });

  it('passes cfn-lint in its region', () => {
    const lint = cfnLint(fleetTemplate.toJSON(), 'us-west-2');
    expect(lint.matches.map(renderMatch)).toEqual([]);
    expect(lint.status, lint.stderr).toBe(0);
  });

  it('stays clean under cdk-nag AwsSolutions, fleet stack included', () => {
    const findings = new AwsSolutionsChecks(undefined, { verbose: true })
      .validateScope(gpurent.app)
      .violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}`));
    expect(findings).toEqual([]);
  });
});
