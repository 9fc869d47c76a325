import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccountPrincipal, Effect, PolicyStatement, Role } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { CHECKPOINT_CREDENTIALS_SECONDS } from '../../shared/domain/tasks/checkpoint-access';
import { FLEET_TAG, LEASE_TAG, MANAGED_TAG, TENANT_TAG } from '../../shared/ports/compute';
import { BUCKETS, CHECKPOINT_ROLE, LOG_GROUPS, SESSION_ROLE } from '../../shared/resources';
import { SESSION_DOCUMENTS, SESSION_DURATION_SECONDS } from '../../shared/usecases/access-policies';
import type { GpurentFunction } from './gpurent-function';
import { acknowledgeWildcardResource } from './nag';

export interface GpurentTasksProps {
  readonly fleetName: string;
  /** The GPU instances' role: it writes the task output (and nothing of the checkpoint bucket). */
  readonly instanceRole: Role;
}

const RUN_SHELL_SCRIPT = 'AWS-RunShellScript';

/**
 * What tasks on leases need: the output log group (retained per
 * LOG_GROUPS.taskOutput), the checkpoint bucket (encrypted, TLS only, no
 * public access, old checkpoints expire, its server access logged), SSM Run
 * Command rights scoped to AWS-RunShellScript on the fleet's own instances,
 * the role whose credentials, narrowed to one lease by a session policy,
 * open Session Manager sessions to its instances, and the role that is the
 * only way to the checkpoints, narrowed the same way to one lease's prefix.
 */
export class GpurentTasks extends Construct {
  public readonly taskOutput: LogGroup;
  public readonly checkpoints: Bucket;
  public readonly sessionRole: Role;
  public readonly checkpointRole: Role;
  private readonly fleetName: string;

  constructor(scope: Construct, id: string, props: GpurentTasksProps) {
    super(scope, id);
    this.fleetName = props.fleetName;
    this.taskOutput = new LogGroup(this, LOG_GROUPS.taskOutput.id, {
      retention: LOG_GROUPS.taskOutput.retentionDays as RetentionDays,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.checkpoints = this.checkpointBucket();
    this.grantInstances(props.instanceRole);
    this.sessionRole = this.leaseSessionRole();
    this.checkpointRole = this.checkpointAccessRole();
  }

  private checkpointBucket(): Bucket {
    const secure = {
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      removalPolicy: RemovalPolicy.RETAIN,
    } as const;
    // Who read or wrote which checkpoint, kept apart from the checkpoints themselves.
    const accessLogs = new Bucket(this, `${BUCKETS.checkpoints.id}AccessLogs`, {
      ...secure,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
    });
    return new Bucket(this, BUCKETS.checkpoints.id, {
      ...secure,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'checkpoints/',
      lifecycleRules: [
        {
          expiration: Duration.days(BUCKETS.checkpoints.expireAfterDays),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
    });
  }

  /**
   * The instances write their task's output, and nothing else here. They get
   * no checkpoint rights: every lease's instances share this role, and IAM
   * cannot tell which lease an instance-profile session belongs to, so any
   * grant here would open every lease's prefix to every instance.
   */
  private grantInstances(role: Role): void {
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents', 'logs:DescribeLogStreams'],
        resources: [this.taskOutput.logGroupArn],
      }),
    );
  }

  /**
   * The only principal with checkpoint rights. Each use is narrowed to one
   * lease's prefix by the session policy of checkpointSessionPolicy
   * (shared/domain/tasks/checkpoint-access.ts); the functions that start
   * attempts assume it and hand the credentials to the attempt.
   */
  private checkpointAccessRole(): Role {
    const stack = Stack.of(this);
    // Trusts the account: only principals granted sts:AssumeRole on it (the task-starting functions) can assume it.
    const role = new Role(this, CHECKPOINT_ROLE.id, {
      assumedBy: new AccountPrincipal(stack.account),
      maxSessionDuration: Duration.seconds(CHECKPOINT_CREDENTIALS_SECONDS),
      description: "Lease checkpoints; every use is narrowed to one lease's prefix by a session policy",
    });
    const objects = this.checkpoints.arnForObjects('*');
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
        resources: [objects],
      }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.checkpoints.bucketArn] }),
    );
    acknowledgeWildcardResource(
      role,
      objects,
      "Checkpoint keys are <tenant>/<lease>/<file>, named by the task at run time; each credential's session policy narrows this role to its lease's own prefix.",
    );
    return role;
  }

  private leaseSessionRole(): Role {
    const stack = Stack.of(this);
    // Trusts the account: only principals granted sts:AssumeRole on it (the API function) can assume it.
    const role = new Role(this, SESSION_ROLE.id, {
      assumedBy: new AccountPrincipal(stack.account),
      maxSessionDuration: Duration.seconds(SESSION_DURATION_SECONDS),
      description:
        "Session Manager to gpurent's GPU instances; every use is narrowed to one lease's instances by a session policy",
    });
    const instances = stack.formatArn({
      service: 'ec2',
      region: '*',
      resource: 'instance',
      resourceName: '*',
    });
    const sessions = stack.formatArn({
      service: 'ssm',
      region: '*',
      resource: 'session',
      resourceName: 'gpurent-*',
    });
    role.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['ssm:StartSession'],
        resources: [instances],
        // Only gpurent's own instances, and only those that belong to a lease and a tenant.
        conditions: {
          StringEquals: { [`ssm:resourceTag/${MANAGED_TAG}`]: 'true' },
          StringLike: {
            [`ssm:resourceTag/${LEASE_TAG}`]: 'lease_*',
            [`ssm:resourceTag/${TENANT_TAG}`]: '?*',
          },
        },
      }),
    );
    const documents = SESSION_DOCUMENTS.map((document) =>
      stack.formatArn({
        service: 'ssm',
        region: '*',
        account: '',
        resource: 'document',
        resourceName: document,
      }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({ effect: Effect.ALLOW, actions: ['ssm:StartSession'], resources: documents }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['ssm:ResumeSession', 'ssm:TerminateSession'],
        resources: [sessions],
      }),
    );
    acknowledgeWildcardResource(
      role,
      instances,
      "Any gpurent-managed instance of a lease (by tag condition); each credential's session policy names the lease's own instance ARNs.",
    );
    for (const document of documents) {
      acknowledgeWildcardResource(
        role,
        document,
        'The AWS-owned Session Manager documents in every GPU region.',
      );
    }
    acknowledgeWildcardResource(
      role,
      sessions,
      "Sessions this role opened (SSM names them after the role session name, gpurent-<lease>); each credential's session policy narrows it to its own lease.",
    );
    return role;
  }

  /** Lets `fn` send, cancel and read task commands on the fleet's instances, and tells it where output and checkpoints go. */
  bindRunner(fn: GpurentFunction): void {
    const stack = Stack.of(this);
    // Acknowledged where the policy is: on the function's role.
    const role = fn.role.grantPrincipal;
    if (!Construct.isConstruct(role)) throw new Error(`${fn.node.path}: its role is not a construct`);
    fn.addEnvironment(LOG_GROUPS.taskOutput.envVar, this.taskOutput.logGroupName);
    fn.addEnvironment(BUCKETS.checkpoints.envVar, this.checkpoints.bucketName);
    const document = stack.formatArn({
      service: 'ssm',
      account: '',
      resource: 'document',
      resourceName: RUN_SHELL_SCRIPT,
    });
    fn.addToRolePolicy(new PolicyStatement({ actions: ['ssm:SendCommand'], resources: [document] }));
    const instances = stack.formatArn({ service: 'ec2', resource: 'instance', resourceName: '*' });
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ssm:SendCommand'],
        resources: [instances],
        conditions: { StringEquals: { [`ssm:resourceTag/${FLEET_TAG}`]: this.fleetName } },
      }),
    );
    acknowledgeWildcardResource(
      role,
      instances,
      'Lease instances are launched at run time, so their ids cannot be named here; the ssm:resourceTag condition limits SendCommand to the fleet-tagged instances, and the other statement to AWS-RunShellScript.',
    );
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['ssm:CancelCommand', 'ssm:GetCommandInvocation'], resources: ['*'] }),
    );
    acknowledgeWildcardResource(
      role,
      '*',
      'ssm:CancelCommand and ssm:GetCommandInvocation support no resource-level permissions (Service Authorization Reference: no resource types).',
    );
  }

  /** Lets `fn` read the task output group's events, and tells it the group's name. */
  grantReadTaskOutput(fn: GpurentFunction): void {
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['logs:GetLogEvents', 'logs:FilterLogEvents'],
        resources: [this.taskOutput.logGroupArn],
      }),
    );
    fn.addEnvironment(LOG_GROUPS.taskOutput.envVar, this.taskOutput.logGroupName);
  }

  /** Lets `fn` assume the checkpoint role, and tells it the role's ARN. */
  grantAssumeCheckpointRole(fn: GpurentFunction): void {
    this.checkpointRole.grantAssumeRole(fn.role);
    fn.addEnvironment(CHECKPOINT_ROLE.envVar, this.checkpointRole.roleArn);
  }

  /** Lets `fn` assume the session role, and tells it the role's ARN. */
  grantAssumeSessionRole(fn: GpurentFunction): void {
    this.sessionRole.grantAssumeRole(fn.role);
    fn.addEnvironment(SESSION_ROLE.envVar, this.sessionRole.roleArn);
  }
}
