import { Aws, Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { LEASE_EXPIRY } from '../../shared/resources';
import type { GpurentFunction } from './gpurent-function';
import { acknowledgeWildcardResource } from './nag';

export interface LeaseExpiryProps {
  /** The lease commands queue: an expiry sends it an `expire` command. */
  readonly commandsQueue: IQueue;
}

/**
 * Where the one-time schedules that release leases on time live: a schedule
 * group, and the role EventBridge Scheduler assumes to send the `expire`
 * command to the lease commands queue. The API arms schedules (one per lease,
 * named after it); the control-plane functions delete them when a lease ends.
 */
export class LeaseExpiry extends Construct {
  public readonly group: CfnScheduleGroup;
  public readonly senderRole: Role;
  private readonly commandsQueue: IQueue;

  constructor(scope: Construct, id: string, props: LeaseExpiryProps) {
    super(scope, id);
    this.commandsQueue = props.commandsQueue;
    this.group = new CfnScheduleGroup(this, 'Group', { name: LEASE_EXPIRY.group.name });
    this.senderRole = new Role(this, 'SenderRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
      description: 'Lets EventBridge Scheduler send expire commands of leases to the lease commands queue',
    });
    props.commandsQueue.grantSendMessages(this.senderRole);
  }

  /** The ARN pattern of every lease's schedule in the group. */
  private get schedulesArn(): string {
    return Stack.of(this).formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${LEASE_EXPIRY.group.name}/*`,
    });
  }

  /**
   * Gives `fn` the schedule group's name and the right to delete lease schedules
   * (shared/lambda/lease-expiry.ts, leaseExpiryCancel); with `arm`, also the
   * queue and role the schedules use and the rights to create them and pass the
   * sender role (leaseExpiryScheduler).
   */
  public bind(fn: GpurentFunction, access: 'arm' | 'cancel'): void {
    fn.addEnvironment(LEASE_EXPIRY.group.envVar, LEASE_EXPIRY.group.name);
    if (access === 'arm') {
      fn.addEnvironment(LEASE_EXPIRY.queueArnEnvVar, this.commandsQueue.queueArn);
      fn.addEnvironment(LEASE_EXPIRY.roleArnEnvVar, this.senderRole.roleArn);
    }
    const actions =
      access === 'arm'
        ? ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule']
        : ['scheduler:DeleteSchedule'];
    fn.addToRolePolicy(new PolicyStatement({ actions, resources: [this.schedulesArn] }));
    if (access === 'arm') this.senderRole.grantPassRole(fn.role);
    acknowledgeWildcardResource(
      fn.role,
      this.schedulesArn,
      'Each lease gets its own one-time schedule (expire-<leaseId>) in the lease expiry group; names are not known at deploy time.',
    );
  }
}
