import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { GPU_AMI_SSM_PARAMETER, GpuFleet, MANAGED_TAG } from '../../infra/constructs/fleet';

// GpuFleet alone (no functions to bundle), so the AMI variants are cheap to synthesize.
function fleetTemplate(props: ConstructorParameters<typeof GpuFleet>[2] = {}) {
  const app = new App();
  const stack = new Stack(app, 'FleetTest', { env: { region: 'us-east-1' } });
  new GpuFleet(stack, 'Fleet', props);
  return Template.fromStack(stack);
}

describe('GpuFleet', () => {
  it('resolves the Deep Learning Base GPU AMI from its public SSM parameter at deploy time', () => {
    const template = fleetTemplate();
    const [parameterId, parameter] = Object.entries(
      template.toJSON().Parameters as Record<string, { Type: string; Default: string }>,
    ).find(([, p]) => p.Default === GPU_AMI_SSM_PARAMETER) ?? ['', undefined];
    expect(parameter?.Type).toBe('AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>');
    template.hasResourceProperties('AWS::EC2::LaunchTemplate', {
      LaunchTemplateData: { ImageId: { Ref: parameterId } },
    });
  });

  it('uses a pinned AMI when gpuAmiId is given', () => {
    const template = fleetTemplate({ gpuAmiId: 'ami-0123456789abcdef0' });
    template.hasResourceProperties('AWS::EC2::LaunchTemplate', {
      LaunchTemplateData: { ImageId: 'ami-0123456789abcdef0' },
    });
    expect(JSON.stringify(template.toJSON().Parameters ?? {})).not.toContain(GPU_AMI_SSM_PARAMETER);
  });

  it('tags every subnet and the launch template with the fleet name the functions select them by', () => {
    const template = fleetTemplate({ fleetName: 'blue' });
    const tagged = (tags: unknown) =>
      (tags as { Key: string; Value: string }[] | undefined)?.some(
        (t) => t.Key === 'gpurent:fleet' && t.Value === 'blue',
      );
    const subnets = Object.values(template.findResources('AWS::EC2::Subnet'));
    expect(subnets.length).toBeGreaterThan(0);
    expect(subnets.every((subnet) => tagged(subnet.Properties.Tags))).toBe(true);
    const [launchTemplate] = Object.values(template.findResources('AWS::EC2::LaunchTemplate'));
    const specs = launchTemplate?.Properties.TagSpecifications as { ResourceType: string; Tags: unknown }[];
    expect(tagged(specs.find((spec) => spec.ResourceType === 'launch-template')?.Tags)).toBe(true);
  });

  it('rejects a gpuAmiId that is not an AMI id, saying what to pass', () => {
    expect(() => fleetTemplate({ gpuAmiId: 'ubuntu-latest' })).toThrow(/ami-/);
  });

  it('builds public subnets only, without NAT gateways, with a flow log', () => {
    const template = fleetTemplate({ availabilityZones: ['us-east-1a', 'us-east-1b', 'us-east-1c'] });
    template.resourceCountIs('AWS::EC2::Subnet', 3);
    template.resourceCountIs('AWS::EC2::NatGateway', 0);
    template.hasResourceProperties('AWS::EC2::FlowLog', { ResourceType: 'VPC', TrafficType: 'ALL' });
  });

  it('tags what the launch template creates as managed by gpurent, and requires IMDSv2', () => {
    const template = fleetTemplate();
    const data = (
      Object.values(template.findResources('AWS::EC2::LaunchTemplate'))[0] as {
        Properties: { LaunchTemplateData: Record<string, unknown> };
      }
    ).Properties.LaunchTemplateData;
    const specs = data.TagSpecifications as {
      ResourceType: string;
      Tags: { Key: string; Value: string }[];
    }[];
    for (const type of ['instance', 'volume']) {
      expect(specs.find((spec) => spec.ResourceType === type)?.Tags).toContainEqual({
        Key: MANAGED_TAG.key,
        Value: MANAGED_TAG.value,
      });
    }
    expect(data.MetadataOptions).toMatchObject({ HttpTokens: 'required', HttpEndpoint: 'enabled' });
  });
});
