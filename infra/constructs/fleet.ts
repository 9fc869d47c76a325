import { RemovalPolicy, Stack, Tags } from 'aws-cdk-lib';
import {
  BlockDeviceVolume,
  EbsDeviceVolumeType,
  FlowLogDestination,
  FlowLogTrafficType,
  type IMachineImage,
  InstanceInitiatedShutdownBehavior,
  type IVpc,
  LaunchTemplate,
  LaunchTemplateHttpTokens,
  MachineImage,
  SecurityGroup,
  SubnetType,
  Vpc,
} from 'aws-cdk-lib/aws-ec2';
import { Grant, type IGrantable, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct, type IConstruct } from 'constructs';
import { WARM_POOL_TAG, WARM_READY_TAG } from '../../shared/domain/warm-pools/pool';
import { FLEET_TAG, IMDS_HOP_LIMIT, ROOT_VOLUME_GIB } from '../../shared/ports/compute';
import { gpuTelemetryUserData } from './gpu-telemetry-agent';
import { acknowledgeWildcardResource } from './nag';

/**
 * Public SSM parameter with the latest AWS Deep Learning Base OSS Nvidia Driver GPU AMI
 * (Ubuntu 22.04, x86_64). CloudFormation resolves it at deploy time.
 */
export const GPU_AMI_SSM_PARAMETER =
  '/aws/service/deeplearning/ami/x86_64/base-oss-nvidia-driver-gpu-ubuntu-22.04/latest/ami-id';

/** Every instance gpurent launches carries this tag; only such instances may be terminated. */
export const MANAGED_TAG = { key: 'gpurent:managed', value: 'true' } as const;

export const DEFAULT_FLEET_NAME = 'gpurent';

const AMI_ID_PATTERN = /^ami-[0-9a-f]{8,17}$/;

/**
 * The statements of AmazonSSMManagedInstanceCore the agent needs to register,
 * run commands and open Session Manager sessions. Left out: ssm:GetParameter
 * and ssm:GetParameters (tenants' secrets), and the inventory, compliance and
 * patching actions, which would let one instance write about others.
 */
export const SSM_AGENT_ACTIONS = [
  'ssm:DescribeAssociation',
  'ssm:DescribeDocument',
  'ssm:GetDocument',
  'ssm:GetManifest',
  'ssm:ListAssociations',
  'ssm:ListInstanceAssociations',
  'ssm:UpdateAssociationStatus',
  'ssm:UpdateInstanceAssociationStatus',
  'ssm:UpdateInstanceInformation',
  'ssmmessages:CreateControlChannel',
  'ssmmessages:CreateDataChannel',
  'ssmmessages:OpenControlChannel',
  'ssmmessages:OpenDataChannel',
  'ec2messages:AcknowledgeMessage',
  'ec2messages:DeleteMessage',
  'ec2messages:FailMessage',
  'ec2messages:GetEndpoint',
  'ec2messages:GetMessages',
  'ec2messages:SendReply',
] as const;

export interface GpuFleetProps {
  /**
   * A fixed AMI for the GPU instances instead of the latest Deep Learning Base GPU AMI
   * (also settable with the `gpuAmiId` context value).
   * @default - the AMI in the public SSM parameter GPU_AMI_SSM_PARAMETER, resolved at deploy time
   */
  readonly gpuAmiId?: string;

  /**
   * Availability zones for the public subnets. More zones widen the spot and GPU
   * capacity the placement can choose from.
   * @default - two zones of the stack's region
   */
  readonly availabilityZones?: string[];

  /**
   * Launch into an existing VPC instead of creating one: its id, and the subnets
   * (with public IPs or a NAT route, so instances reach SSM) to launch into, each
   * with its zone. No lookup happens at synth; flow logs stay the VPC owner's.
   * @default - a new VPC with one public subnet per zone and flow logs
   */
  readonly existingVpc?: {
    readonly vpcId: string;
    readonly subnets: readonly { readonly subnetId: string; readonly availabilityZone: string }[];
  };

  /**
   * Value of the `gpurent:fleet` tag on the subnets and the launch template: the
   * functions find each region's fleet by it.
   * @default 'gpurent'
   */
  readonly fleetName?: string;

  /**
   * A fixed name for the instance role, so functions of another region's stack
   * may pass it (iam:PassRole) without a cross-region reference.
   * @default - a name CloudFormation generates
   */
  readonly instanceRoleName?: string;

  /**
   * Which traffic the VPC flow log records.
   * @default FlowLogTrafficType.ALL
   */
  readonly flowLogTrafficType?: FlowLogTrafficType;

  /** @default RetentionDays.THREE_MONTHS */
  readonly flowLogRetention?: RetentionDays;
}

/**
 * Where GPU instances run and how they start: a VPC with public subnets only (no NAT
 * gateway to pay for; instances reach SSM and the internet through the internet
 * gateway, nothing can reach them), flow logs, a security group without ingress, an
 * instance role for the SSM agent only (no lease's data), and a launch template
 * (IMDSv2 only with a hop limit of 1, encrypted gp3 root volume, GPU AMI). Instance type and market (on-demand / spot / reserved)
 * are chosen per launch by the lease worker.
 */
export class GpuFleet extends Construct {
  public readonly vpc: IVpc;
  private readonly existingSubnetIds?: string[];
  public readonly securityGroup: SecurityGroup;
  public readonly instanceRole: Role;
  public readonly launchTemplate: LaunchTemplate;
  public readonly machineImage: IMachineImage;
  public readonly fleetName: string;

  constructor(scope: Construct, id: string, props: GpuFleetProps = {}) {
    super(scope, id);
    this.fleetName = props.fleetName ?? DEFAULT_FLEET_NAME;

    // An existing VPC is known by id only (no lookup at synth); its subnets are used by id.
    this.vpc = props.existingVpc
      ? Vpc.fromVpcAttributes(this, 'Vpc', {
          vpcId: props.existingVpc.vpcId,
          availabilityZones: props.existingVpc.subnets.map((s) => s.availabilityZone),
        })
      : this.createVpc(props);
    this.existingSubnetIds = props.existingVpc?.subnets.map((s) => s.subnetId);

    this.securityGroup = new SecurityGroup(this, 'InstanceSecurityGroup', {
      vpc: this.vpc,
      description: 'gpurent GPU instances: no inbound traffic (use SSM Session Manager), all outbound',
      allowAllOutbound: true,
    });

    this.instanceRole = new Role(this, 'InstanceRole', {
      assumedBy: new ServicePrincipal('ec2.amazonaws.com'),
      roleName: props.instanceRoleName,
      description:
        "gpurent GPU instances: the SSM agent (Run Command, Session Manager) and a warm machine's own ready tag only; no lease's data",
    });
    // What AmazonSSMManagedInstanceCore gives the agent to register, take commands and open sessions, without
    // ssm:GetParameter(s) (every lease shares this role: it would read every tenant's parameters), nor inventory,
    // compliance or patching, which gpurent does not use. A lease's data is reached with its own credentials only
    // (shared/domain/tasks/lease-machine-access.ts).
    this.instanceRole.addToPrincipalPolicy(
      new PolicyStatement({ sid: 'SsmAgentCore', actions: [...SSM_AGENT_ACTIONS], resources: ['*'] }),
    );
    acknowledgeWildcardResource(
      this.instanceRole,
      '*',
      'The SSM agent actions of AmazonSSMManagedInstanceCore (registration, associations, ec2messages and ssmmessages channels), minus parameters, inventory, compliance and patching; the instance acts only as itself: SSM binds its calls to the instance identity of the credentials.',
    );

    // A warm machine's user data tags the machine itself ready (shared/domain/warm-pools/user-data.ts):
    // only its own instance (aws:ARN is the instance acted on), only that one tag key, only while it is a warm machine.
    const ownInstances = this.ec2Arn('instance', '*');
    this.instanceRole.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['ec2:CreateTags'],
        resources: [ownInstances],
        conditions: {
          StringEquals: {
            // biome-ignore lint/suspicious/noTemplateCurlyInString: an IAM policy variable, not a template literal
            'aws:ARN': '${ec2:SourceInstanceARN}',
            [`aws:ResourceTag/${MANAGED_TAG.key}`]: MANAGED_TAG.value,
          },
          'ForAllValues:StringEquals': { 'aws:TagKeys': [WARM_READY_TAG] },
          Null: { [`aws:ResourceTag/${WARM_POOL_TAG}`]: 'false' },
        },
      }),
    );
    acknowledgeWildcardResource(
      this.instanceRole,
      ownInstances,
      `An instance cannot name its own id in its role; the conditions limit ec2:CreateTags to the calling instance itself (aws:ARN = ec2:SourceInstanceARN), to the ${WARM_READY_TAG} key, and to gpurent-managed warm machines.`,
    );

    this.machineImage = this.resolveMachineImage(props.gpuAmiId);

    this.launchTemplate = new LaunchTemplate(this, 'GpuLaunchTemplate', {
      machineImage: this.machineImage,
      userData: gpuTelemetryUserData(),
      role: this.instanceRole,
      securityGroup: this.securityGroup,
      requireImdsv2: true,
      httpEndpoint: true,
      httpTokens: LaunchTemplateHttpTokens.REQUIRED,
      // One hop: IMDS answers reach the machine's own processes, never a container on Docker's
      // bridge network (tasks run there, shared/domain/tasks/script.ts), so task code cannot take
      // the instance role's credentials. The task's own are the lease's (docs/ARCHITECTURE.md).
      httpPutResponseHopLimit: IMDS_HOP_LIMIT,
      detailedMonitoring: true,
      ebsOptimized: true,
      instanceInitiatedShutdownBehavior: InstanceInitiatedShutdownBehavior.TERMINATE,
      blockDevices: [
        {
          // Root device of the Ubuntu Deep Learning AMIs.
          deviceName: '/dev/sda1',
          volume: BlockDeviceVolume.ebs(ROOT_VOLUME_GIB, {
            volumeType: EbsDeviceVolumeType.GP3,
            encrypted: true,
            deleteOnTermination: true,
          }),
        },
      ],
    });
    // Propagated to the instances and volumes launched from the template.
    Tags.of(this.launchTemplate).add(MANAGED_TAG.key, MANAGED_TAG.value);
    // Subnets and launch template are selected by this tag (shared/adapters/ec2-compute.ts).
    Tags.of(this.vpc).add(FLEET_TAG, this.fleetName);
    Tags.of(this.launchTemplate).add(FLEET_TAG, this.fleetName);
  }

  public get launchTemplateId(): string {
    // Always defined for a LaunchTemplate created in this stack.
    return this.launchTemplate.launchTemplateId as string;
  }

  private createVpc(props: GpuFleetProps): Vpc {
    const vpc = new Vpc(this, 'Vpc', {
      natGateways: 0,
      availabilityZones: props.availabilityZones,
      maxAzs: props.availabilityZones ? undefined : 2,
      subnetConfiguration: [{ name: 'public', subnetType: SubnetType.PUBLIC, cidrMask: 20 }],
      restrictDefaultSecurityGroup: true,
    });
    const flowLogGroup = new LogGroup(this, 'FlowLogGroup', {
      retention: props.flowLogRetention ?? RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    vpc.addFlowLog('FlowLog', {
      destination: FlowLogDestination.toCloudWatchLogs(flowLogGroup),
      trafficType: props.flowLogTrafficType ?? FlowLogTrafficType.ALL,
    });
    return vpc;
  }

  public get subnetIds(): string[] {
    return this.existingSubnetIds ?? this.vpc.publicSubnets.map((subnet) => subnet.subnetId);
  }

  /** What a function acting on the fleet reads: the tag its subnets and launch templates carry. */
  public get launchEnvironment(): Record<string, string> {
    return { FLEET_NAME: this.fleetName };
  }

  /**
   * Lets `grantee` launch instances from this fleet's launch template (any instance
   * type, on-demand, spot or into a capacity reservation), tag them while they are
   * created, and pass the instance role to them.
   */
  public grantLaunch(grantee: IGrantable): Grant {
    const launchTemplateArn = this.ec2Arn('launch-template', this.launchTemplateId);
    const created = ['instance/*', 'volume/*', 'network-interface/*', 'spot-instances-request/*'];
    const launched = [...created, 'capacity-reservation/*'];
    const imageArn = Stack.of(this).formatArn({
      service: 'ec2',
      account: '',
      resource: 'image',
      resourceName: '*',
    });

    const grant = Grant.addToPrincipal({
      grantee,
      actions: ['ec2:RunInstances'],
      resourceArns: [
        launchTemplateArn,
        ...this.subnetIds.map((subnetId) => this.ec2Arn('subnet', subnetId)),
        this.ec2Arn('security-group', this.securityGroup.securityGroupId),
        imageArn,
        ...launched.map((resource) => this.ec2Arn(...splitResource(resource))),
      ],
      conditions: { ArnLike: { 'ec2:LaunchTemplate': launchTemplateArn } },
    });
    grant.combine(
      Grant.addToPrincipal({
        grantee,
        actions: ['ec2:CreateTags'],
        resourceArns: created.map((resource) => this.ec2Arn(...splitResource(resource))),
        conditions: { StringEquals: { 'ec2:CreateAction': 'RunInstances' } },
      }),
    );
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.instanceRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'ec2.amazonaws.com' } },
      }),
    );

    const principal = asConstruct(grantee);
    if (principal) {
      acknowledgeWildcardResource(
        principal,
        imageArn,
        'RunInstances must name the AMI; the AMI comes from the launch template (promoted / rolled back between versions) and the statement only applies with ec2:LaunchTemplate = the gpurent launch template.',
      );
      for (const resource of launched) {
        acknowledgeWildcardResource(
          principal,
          this.ec2Arn(...splitResource(resource)),
          `RunInstances creates or uses ${resource.replace('/*', '')} resources whose ids are not known before the call; allowed only with ec2:LaunchTemplate = the gpurent launch template.`,
        );
      }
      for (const resource of created) {
        acknowledgeWildcardResource(
          principal,
          this.ec2Arn(...splitResource(resource)),
          'ec2:CreateTags only while creating them (condition ec2:CreateAction = RunInstances), to tag launches with lease and tenant.',
        );
      }
    }
    return grant;
  }

  /**
   * Lets `grantee` read metrics with cloudwatch:GetMetricData, and nothing else
   * of CloudWatch (the GPU telemetry the instances publish, tenants' custom metrics).
   */
  public grantReadMetrics(grantee: IGrantable): Grant {
    const grant = Grant.addToPrincipal({
      grantee,
      actions: ['cloudwatch:GetMetricData'],
      resourceArns: ['*'],
    });
    const principal = asConstruct(grantee);
    if (principal) {
      acknowledgeWildcardResource(
        principal,
        '*',
        'cloudwatch:GetMetricData supports no resource-level permissions (read-only).',
      );
    }
    return grant;
  }

  /**
   * Lets `grantee` add versions to this fleet's launch template (one per image
   * version: its AMI, IMDSv2 and encrypted volumes kept from the default).
   */
  public grantCreateLaunchTemplateVersion(grantee: IGrantable): Grant {
    return Grant.addToPrincipal({
      grantee,
      actions: ['ec2:CreateLaunchTemplateVersion'],
      resourceArns: [this.ec2Arn('launch-template', this.launchTemplateId)],
    });
  }

  /** Lets `grantee` terminate instances tagged `gpurent:managed=true`, and no others. */
  public grantTerminateManaged(grantee: IGrantable): Grant {
    return this.grantManaged(grantee, ['ec2:TerminateInstances']);
  }

  /**
   * Lets `grantee` act on instances tagged `gpurent:managed=true` only: stop a
   * warm machine, or retag one to its lease and start it.
   */
  public grantManaged(grantee: IGrantable, actions: readonly string[]): Grant {
    const instances = this.ec2Arn('instance', '*');
    const grant = Grant.addToPrincipal({
      grantee,
      actions: [...actions],
      resourceArns: [instances],
      conditions: { StringEquals: { [`aws:ResourceTag/${MANAGED_TAG.key}`]: MANAGED_TAG.value } },
    });
    const principal = asConstruct(grantee);
    if (principal) {
      acknowledgeWildcardResource(
        principal,
        instances,
        `${actions.map((action) => action.replace('ec2:', '')).join(', ')} on instance/* is narrowed by the condition aws:ResourceTag/gpurent:managed = true: only instances gpurent launched.`,
      );
    }
    return grant;
  }

  /**
   * Lets `grantee` call read-only EC2 describe actions (which support no resource-level
   * permissions). @default actions: ec2:DescribeInstances
   */
  public grantDescribe(grantee: IGrantable, ...actions: string[]): Grant {
    const describeActions = actions.length > 0 ? actions : ['ec2:DescribeInstances'];
    for (const action of describeActions) {
      if (!/^ec2:Describe[A-Za-z]+$/.test(action)) {
        throw new Error(`grantDescribe: ${action} is not a single ec2:Describe* action.`);
      }
    }
    const grant = Grant.addToPrincipal({ grantee, actions: describeActions, resourceArns: ['*'] });
    const principal = asConstruct(grantee);
    if (principal) {
      acknowledgeWildcardResource(
        principal,
        '*',
        `${describeActions.join(', ')}: EC2 describe actions support no resource-level permissions (read-only).`,
      );
    }
    return grant;
  }

  private resolveMachineImage(gpuAmiId: string | undefined): IMachineImage {
    if (gpuAmiId === undefined || gpuAmiId === '') {
      return MachineImage.fromSsmParameter(GPU_AMI_SSM_PARAMETER);
    }
    if (!AMI_ID_PATTERN.test(gpuAmiId)) {
      throw new Error(
        `gpuAmiId '${gpuAmiId}' is not an AMI id (ami- followed by 8 or 17 hex digits). Pass e.g. -c gpuAmiId=ami-0123456789abcdef0, or leave it unset for the latest Deep Learning Base GPU AMI.`,
      );
    }
    return MachineImage.genericLinux({ [Stack.of(this).region]: gpuAmiId });
  }

  private ec2Arn(resource: string, resourceName: string): string {
    return Stack.of(this).formatArn({ service: 'ec2', resource, resourceName });
  }
}

function splitResource(resource: string): [string, string] {
  const [type, name] = resource.split('/');
  return [type as string, name as string];
}

/** The construct that owns the grantee's policies (its role), if there is one. */
function asConstruct(grantee: IGrantable): IConstruct | undefined {
  const principal = grantee.grantPrincipal;
  return Construct.isConstruct(principal) ? principal : undefined;
}
