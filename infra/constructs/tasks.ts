import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { FLEET_TAG } from '../../shared/ports/compute';
import { BUCKETS, LOG_GROUPS } from '../../shared/resources';
import type { GpurentFunction } from './gpurent-function';

export interface GpurentTasksProps {
  readonly fleetName: string;
  /** The GPU instances' role: it writes the task output and the lease's checkpoints. */
  readonly instanceRole: Role;
}

/**
 * What tasks on leases need: the output log group (retained per
 * LOG_GROUPS.taskOutput), the checkpoint bucket (encrypted, TLS only, no
 * public access, old checkpoints expire), and SSM Run Command rights scoped
 * to AWS-RunShellScript on the fleet's own instances.
 */
export class GpurentTasks extends Construct {
  public readonly logGroup: LogGroup;
  public readonly checkpoints: Bucket;
  private readonly fleetName: string;

  constructor(scope: Construct, id: string, props: GpurentTasksProps) {
    super(scope, id);
    this.fleetName = props.fleetName;
    this.logGroup = new LogGroup(this, LOG_GROUPS.taskOutput.id, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.checkpoints = new Bucket(this, BUCKETS.checkpoints.id, {
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      lifecycleRules: [
        { expiration: Duration.days(30), abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.logGroup.grantWrite(props.instanceRole);
    this.checkpoints.grantReadWrite(props.instanceRole);
  }

  /** Lets `fn` send, cancel and read task commands on the fleet's instances, and tells it where output goes. */
  bind(fn: GpurentFunction): void {
    const stack = Stack.of(this);
    fn.addEnvironment(LOG_GROUPS.taskOutput.envVar, this.logGroup.logGroupName);
    fn.addEnvironment(BUCKETS.checkpoints.envVar, this.checkpoints.bucketName);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ssm:SendCommand'],
        resources: [
          stack.formatArn({
            service: 'ssm',
            account: '',
            resource: 'document',
            resourceName: 'AWS-RunShellScript',
          }),
        ],
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ssm:SendCommand'],
        resources: [stack.formatArn({ service: 'ec2', resource: 'instance', resourceName: '*' })],
        conditions: { StringEquals: { [`ssm:resourceTag/${FLEET_TAG}`]: this.fleetName } },
      }),
    );
    // CancelCommand and GetCommandInvocation take no resource-level permissions.
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['ssm:CancelCommand', 'ssm:GetCommandInvocation'], resources: ['*'] }),
    );
  }
}
