import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AccountPrincipal,
  ArnPrincipal,
  type CfnRole,
  Effect,
  PolicyDocument,
  PolicyStatement,
  Role,
} from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  ObjectLockRetention,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import {
  LEASE_MACHINE_CREDENTIALS_SECONDS,
  tenantParameterPath,
  tenantRepositoryPrefix,
  tenantSecretPrefix,
} from '../../shared/domain/tasks/lease-machine-access';
import { FLEET_TAG, LEASE_TAG, MANAGED_TAG, TENANT_TAG } from '../../shared/ports/compute';
import { BUCKETS, LEASE_MACHINE_ROLE, LOG_GROUPS, SESSION_ROLE } from '../../shared/resources';
import { SESSION_DOCUMENTS, SESSION_DURATION_SECONDS } from '../../shared/usecases/access-policies';
import type { GpurentFunction } from './gpurent-function';
import { acknowledgeWildcardResource } from './nag';

export interface GpurentTasksProps {
  readonly fleetName: string;
  /**
   * Days of S3 Object Lock compliance retention for every checkpoint version
   * (`checkpointRetentionDays` context value): nobody, the root user included,
   * can delete or overwrite a version before then. Object Lock can only be
   * turned on when the bucket is created.
   * @default - no Object Lock
   */
  readonly checkpointRetentionDays?: number;
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
  public readonly leaseMachineRole: Role;
  private readonly fleetName: string;
  /** Who may assume each role: the roles of the functions granted it, and nobody else. */
  private readonly sessionTrust = new PolicyDocument();
  private readonly leaseMachineTrust = new PolicyDocument();

  constructor(scope: Construct, id: string, props: GpurentTasksProps) {
    super(scope, id);
    this.fleetName = props.fleetName;
    this.taskOutput = new LogGroup(this, LOG_GROUPS.taskOutput.id, {
      retention: LOG_GROUPS.taskOutput.retentionDays as RetentionDays,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.checkpoints = this.checkpointBucket(props.checkpointRetentionDays);
    this.sessionRole = this.leaseSessionRole();
    this.leaseMachineRole = this.createLeaseMachineRole();
    trustOnly(this.sessionRole, this.sessionTrust);
    trustOnly(this.leaseMachineRole, this.leaseMachineTrust);
  }

  /**
   * Versioned (an overwritten or deleted checkpoint stays recoverable as a
   * non-current version for BUCKETS.checkpoints.nonCurrentDays), optionally
   * under compliance retention, and retained with the stack's deletion.
   */
  private checkpointBucket(retentionDays: number | undefined): Bucket {
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
      versioned: true,
      objectLockEnabled: retentionDays !== undefined,
      objectLockDefaultRetention:
        retentionDays === undefined
          ? undefined
          : ObjectLockRetention.compliance(Duration.days(retentionDays)),
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'checkpoints/',
      lifecycleRules: [
        {
          expiration: Duration.days(BUCKETS.checkpoints.expireAfterDays),
          noncurrentVersionExpiration: Duration.days(BUCKETS.checkpoints.nonCurrentDays),
          expiredObjectDeleteMarker: false,
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
    });
  }

  /**
   * The only principal with rights to any lease's data on its machines:
   * checkpoints, the tenants' parameters, secrets and images, task output
   * streams and lease metric namespaces. Each use is narrowed to one lease by
   * the session policy of leaseMachinePolicy
   * (shared/domain/tasks/lease-machine-access.ts); the functions that start
   * attempts assume it and write the credentials onto the lease's machine.
   */
  private createLeaseMachineRole(): Role {
    const stack = Stack.of(this);
    const role = new Role(this, LEASE_MACHINE_ROLE.id, {
      // Replaced by trustOnly: the functions granted grantAssumeLeaseMachineRole, by role ARN.
      assumedBy: new AccountPrincipal(stack.account),
      maxSessionDuration: Duration.seconds(LEASE_MACHINE_CREDENTIALS_SECONDS),
      description:
        "A lease's machine: checkpoints, the tenant's secrets and images, task output, GPU telemetry; every use narrowed to one lease by a session policy",
    });
    const anyRegion = (service: string, resource: string, resourceName: string) =>
      stack.formatArn({ service, region: '*', resource, resourceName });
    const parameters = anyRegion('ssm', 'parameter', `${tenantParameterPath('*').slice(1)}*`);
    const secrets = stack.formatArn({
      service: 'secretsmanager',
      region: '*',
      resource: 'secret',
      resourceName: `${tenantSecretPrefix('*')}*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    const repositories = anyRegion('ecr', 'repository', `${tenantRepositoryPrefix('*')}*`);
    // The group's own ARN ends in `:*`; its streams are named after it (a token at synth, so formatted, not edited).
    const taskOutputStreams = stack.formatArn({
      service: 'logs',
      resource: 'log-group',
      resourceName: `${this.taskOutput.logGroupName}:log-stream:*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['ssm:GetParameter', 'ssm:GetParameters'], resources: [parameters] }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secrets] }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [taskOutputStreams],
      }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['cloudwatch:PutMetricData'],
        resources: ['*'],
        conditions: { StringLike: { 'cloudwatch:namespace': 'gpurent/*/leases/lease_*' } },
      }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['ecr:GetAuthorizationToken'], resources: ['*'] }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer', 'ecr:BatchCheckLayerAvailability'],
        resources: [repositories],
      }),
    );
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
    const perLease =
      "each credential's session policy (leaseMachinePolicy) narrows it to the lease's own tenant";
    acknowledgeWildcardResource(
      role,
      parameters,
      `Tenants' parameters under /gpurent/<tenant>/; ${perLease}.`,
    );
    acknowledgeWildcardResource(role, secrets, `Tenants' secrets under gpurent/<tenant>/; ${perLease}.`);
    acknowledgeWildcardResource(
      role,
      repositories,
      `Tenants' ECR repositories gpurent/<tenant>/; ${perLease}.`,
    );
    acknowledgeWildcardResource(
      role,
      taskOutputStreams,
      "Streams of the task output group, named per lease and attempt at run time; each credential's session policy narrows it to the lease's own stream prefix.",
    );
    acknowledgeWildcardResource(
      role,
      '*',
      "cloudwatch:PutMetricData and ecr:GetAuthorizationToken support no resource-level permissions; PutMetricData is held to lease namespaces by condition and each credential's session policy to its own lease's namespace; the ECR token pulls only the repositories allowed beside it.",
    );
    return role;
  }

  private leaseSessionRole(): Role {
    const stack = Stack.of(this);
    const role = new Role(this, SESSION_ROLE.id, {
      // Replaced by trustOnly: the functions granted grantAssumeSessionRole, by role ARN.
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
      new PolicyStatement({
        actions: ['ssm:CancelCommand', 'ssm:GetCommandInvocation', 'ssm:ListCommands'],
        resources: ['*'],
      }),
    );
    acknowledgeWildcardResource(
      role,
      '*',
      'ssm:CancelCommand, ssm:GetCommandInvocation and ssm:ListCommands support no resource-level permissions (Service Authorization Reference: no resource types).',
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

  /**
   * Lets `fn` assume the lease machine role (its trust policy names `fn`'s
   * role), and tells it the role's ARN and the bucket and log group whoever
   * assumes it names in its session policy.
   */
  grantAssumeLeaseMachineRole(fn: GpurentFunction): void {
    this.leaseMachineRole.grantAssumeRole(fn.role);
    this.leaseMachineTrust.addStatements(assumeBy(fn));
    fn.addEnvironment(LEASE_MACHINE_ROLE.envVar, this.leaseMachineRole.roleArn);
    fn.addEnvironment(BUCKETS.checkpoints.envVar, this.checkpoints.bucketName);
    fn.addEnvironment(LOG_GROUPS.taskOutput.envVar, this.taskOutput.logGroupName);
  }

  /**
   * Lets `fn` list the checkpoint bucket (s3:ListBucket, no object reads: a
   * listing carries the sizes billing needs), and tells it the bucket's name.
   */
  grantListCheckpoints(fn: GpurentFunction): void {
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.checkpoints.bucketArn] }),
    );
    fn.addEnvironment(BUCKETS.checkpoints.envVar, this.checkpoints.bucketName);
  }

  /** Lets `fn` assume the session role, and tells it the role's ARN. */
  grantAssumeSessionRole(fn: GpurentFunction): void {
    this.sessionRole.grantAssumeRole(fn.role);
    this.sessionTrust.addStatements(assumeBy(fn));
    fn.addEnvironment(SESSION_ROLE.envVar, this.sessionRole.roleArn);
  }
}

/** A trust statement for one function's role, by its ARN: not the account, so no other principal can assume it. */
const assumeBy = (fn: GpurentFunction) =>
  new PolicyStatement({ actions: ['sts:AssumeRole'], principals: [new ArnPrincipal(fn.role.roleArn)] });

/**
 * Makes `trust` the role's trust policy. CDK's Role needs a principal when it
 * is built, before the functions that assume it exist; the statements are
 * added as each function is granted, and a role nobody was granted fails synthesis.
 */
function trustOnly(role: Role, trust: PolicyDocument): void {
  (role.node.defaultChild as CfnRole).assumeRolePolicyDocument = trust;
  role.node.addValidation({
    validate: () => (trust.isEmpty ? [`${role.node.path}: no function was granted to assume it`] : []),
  });
}
