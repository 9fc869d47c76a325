import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccountPrincipal, Effect, PolicyStatement, Role } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { LEASE_TAG, MANAGED_TAG, TENANT_TAG } from '../../shared/ports/compute';
import { BUCKETS, LOG_GROUPS, SESSION_ROLE } from '../../shared/resources';
import { SESSION_DOCUMENTS, SESSION_DURATION_SECONDS } from '../../shared/usecases/access-policies';
import type { GpurentFunction } from './gpurent-function';
import { acknowledge, acknowledgeWildcardResource } from './nag';

/**
 * What tasks on leases need around them: the log group their output goes to,
 * the checkpoint bucket, and the role whose credentials, narrowed to one lease
 * by a session policy, open Session Manager sessions to its instances.
 */
export class TaskAccess extends Construct {
  public readonly taskOutput: LogGroup;
  public readonly checkpoints: Bucket;
  public readonly sessionRole: Role;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);
    this.taskOutput = new LogGroup(this, LOG_GROUPS.taskOutput.id, {
      retention: LOG_GROUPS.taskOutput.retentionDays as RetentionDays,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.checkpoints = new Bucket(this, BUCKETS.checkpoints.id, {
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      lifecycleRules: [
        {
          expiration: Duration.days(BUCKETS.checkpoints.expireAfterDays),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(
      this.checkpoints,
      'AwsSolutions-S1',
      'Checkpoints are written only through per-lease credentials whose use CloudTrail records; server access logs would add a second bucket for the same trail.',
    );

    // Trusts the account: only principals granted sts:AssumeRole on it (the API function) can assume it.
    this.sessionRole = new Role(this, SESSION_ROLE.id, {
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
    this.sessionRole.addToPrincipalPolicy(
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
    this.sessionRole.addToPrincipalPolicy(
      new PolicyStatement({ effect: Effect.ALLOW, actions: ['ssm:StartSession'], resources: documents }),
    );
    this.sessionRole.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['ssm:ResumeSession', 'ssm:TerminateSession'],
        resources: [sessions],
      }),
    );
    acknowledgeWildcardResource(
      this.sessionRole,
      instances,
      "Any gpurent-managed instance of a lease (by tag condition); each credential's session policy names the lease's own instance ARNs.",
    );
    for (const document of documents) {
      acknowledgeWildcardResource(
        this.sessionRole,
        document,
        'The AWS-owned Session Manager documents in every GPU region.',
      );
    }
    acknowledgeWildcardResource(
      this.sessionRole,
      sessions,
      "Sessions this role opened (SSM names them after the role session name, gpurent-<lease>); each credential's session policy narrows it to its own lease.",
    );
  }

  /** Lets `fn` read the task output group's events, and tells it the group's name. */
  public grantReadTaskOutput(fn: GpurentFunction): void {
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['logs:GetLogEvents', 'logs:FilterLogEvents'],
        resources: [this.taskOutput.logGroupArn],
      }),
    );
    fn.addEnvironment(LOG_GROUPS.taskOutput.envVar, this.taskOutput.logGroupName);
  }

  /** Lets `fn` assume the session role, and tells it the role's ARN. */
  public grantAssumeSessionRole(fn: GpurentFunction): void {
    this.sessionRole.grantAssumeRole(fn.role);
    fn.addEnvironment(SESSION_ROLE.envVar, this.sessionRole.roleArn);
  }
}
