import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { GPU_AMI_SSM_PARAMETER, GpuFleet, MANAGED_TAG } from '../../infra/constructs/fleet';
import { NVIDIA_SMI_METRICS } from '../../shared/domain/gpu-telemetry';
import {
  cloudWatchAgentConfig,
  INSTANCE_ID_PLACEHOLDER,
  leaseAgentLines,
} from '../../shared/domain/gpu-telemetry-agent';

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

  it('tags what the launch template creates as managed by gpurent, and requires IMDSv2 one hop away', () => {
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
    // A hop limit of 1: IMDS answers never reach a task's container on Docker's bridge network.
    expect(data.MetadataOptions).toMatchObject({
      HttpTokens: 'required',
      HttpEndpoint: 'enabled',
      HttpPutResponseHopLimit: 1,
    });
  });

  it("installs the CloudWatch agent at boot, and configures it for the nvidia_gpu metrics into a lease's own namespace", () => {
    const template = fleetTemplate();
    const data = (
      Object.values(template.findResources('AWS::EC2::LaunchTemplate'))[0] as {
        Properties: { LaunchTemplateData: { UserData: unknown } };
      }
    ).Properties.LaunchTemplateData;
    const userData = JSON.stringify(data.UserData);
    // Installed, not started: it runs only on a lease's credentials (leaseAgentLines).
    expect(userData).toContain('amazon-cloudwatch-agent.deb');
    expect(userData).not.toContain('fetch-config');
    const config = cloudWatchAgentConfig('gpurent/t1/leases/lease_1');
    expect(config.metrics.namespace).toBe('gpurent/t1/leases/lease_1');
    expect(config.metrics.append_dimensions).toEqual({ InstanceId: INSTANCE_ID_PLACEHOLDER });
    expect(INSTANCE_ID_PLACEHOLDER).toBe(['$', '{aws:InstanceId}'].join(''));
    expect(config.metrics.aggregation_dimensions).toEqual([['InstanceId', 'index']]);
    expect(config.metrics.metrics_collected.nvidia_gpu).toEqual({
      measurement: ['utilization_gpu', 'memory_used', 'memory_total', 'temperature_gpu', 'power_draw'],
      metrics_collection_interval: 60,
    });
    expect(Object.values(NVIDIA_SMI_METRICS)).toEqual(
      config.metrics.metrics_collected.nvidia_gpu.measurement.map((m) => `nvidia_smi_${m}`),
    );
    const lines = leaseAgentLines('/run/gpurent/lease_1', config.metrics.namespace).join('\n');
    for (const measurement of config.metrics.metrics_collected.nvidia_gpu.measurement) {
      expect(lines).toContain(measurement);
    }
    // The agent signs with the lease's credentials file, and is restarted onto each new one.
    expect(lines).toContain('shared_credential_file = "/run/gpurent/lease_1/credentials"');
    expect(lines).toContain(
      '-a stop && /opt/aws/amazon-cloudwatch-agent/bin/amazon-cloudwatch-agent-ctl -a start',
    );
  });

  it('gives the instances no CloudWatch, Logs, parameter, secret or S3 rights, and no managed policy', () => {
    const template = fleetTemplate();
    const roles = template.findResources('AWS::IAM::Role') as Record<
      string,
      { Properties: Record<string, unknown> }
    >;
    // The instance role: the one EC2 assumes (the flow log's role writes its own log group).
    const [instanceRoleId, instanceRole] =
      Object.entries(roles).find(([, role]) =>
        JSON.stringify(role.Properties.AssumeRolePolicyDocument).includes('ec2.amazonaws.com'),
      ) ?? [];
    expect(instanceRole?.Properties.ManagedPolicyArns).toBeUndefined();
    const statements = Object.values(template.findResources('AWS::IAM::Policy'))
      .map(
        (policy) =>
          policy as {
            Properties: { Roles: unknown[]; PolicyDocument: { Statement: Record<string, unknown>[] } };
          },
      )
      .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"${instanceRoleId}"`))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
    const actions = statements.flatMap((s) => [s.Action].flat().map(String));
    expect(actions).toContain('ssm:UpdateInstanceInformation');
    expect(actions.filter((a) => /^(cloudwatch|logs|secretsmanager|s3|kms|ecr):/.test(a))).toEqual([]);
    expect(actions.filter((a) => a.startsWith('ssm:Get') && a.includes('Parameter'))).toEqual([]);
  });

  it('lets an instance set only its own warm-ready tag, and only while it is a gpurent warm machine', () => {
    const template = fleetTemplate();
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
      (policy) =>
        (policy as { Properties: { PolicyDocument: { Statement: Record<string, unknown>[] } } }).Properties
          .PolicyDocument.Statement,
    );
    const tagging = statements.filter((s) => String(s.Action).startsWith('ec2:'));
    expect(tagging).toHaveLength(1);
    expect(tagging[0]).toMatchObject({
      Effect: 'Allow',
      Action: 'ec2:CreateTags',
      Condition: {
        StringEquals: {
          // biome-ignore lint/suspicious/noTemplateCurlyInString: an IAM policy variable
          'aws:ARN': '${ec2:SourceInstanceARN}',
          'aws:ResourceTag/gpurent:managed': 'true',
        },
        'ForAllValues:StringEquals': { 'aws:TagKeys': ['gpurent:warm-ready'] },
        Null: { 'aws:ResourceTag/gpurent:warm-pool': 'false' },
      },
    });
    expect(JSON.stringify(tagging[0]?.Resource)).toContain(':instance/*');
  });
});
