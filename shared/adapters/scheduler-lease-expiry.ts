import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { atExpression, expiryScheduleName } from '../domain/lease-expiry';
import type { LeaseCommand } from '../ports/lease-commands';
import type { LeaseExpiryScheduler } from '../ports/lease-expiry';

export interface LeaseExpiryTarget {
  /** The schedule group every lease's expiry lives in. */
  readonly groupName: string;
  /** The lease commands queue: an expiry is an `expire` command, handled like a tenant's release. */
  readonly queueArn: string;
  /** The role EventBridge Scheduler assumes to send to the queue. */
  readonly roleArn: string;
}

/**
 * Deletes a lease's one-time schedule (named after the lease); deleting a
 * missing one is a ResourceNotFoundException (already fired or cancelled), which is success.
 * Needs only the group: a function that ends leases but arms none gets this alone.
 */
export class SchedulerLeaseCancel implements Pick<LeaseExpiryScheduler, 'cancel'> {
  constructor(
    protected readonly client: SchedulerClient,
    private readonly groupName: string,
  ) {}

  async cancel(leaseId: string): Promise<void> {
    try {
      await this.client.send(
        new DeleteScheduleCommand({ Name: expiryScheduleName(leaseId), GroupName: this.groupName }),
      );
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  }
}

/**
 * A one-time `at(...)` schedule per lease, named after the lease: creating it
 * again is a ConflictException (already armed), which is success.
 */
export class SchedulerLeaseExpiry extends SchedulerLeaseCancel implements LeaseExpiryScheduler {
  constructor(
    client: SchedulerClient,
    private readonly target: LeaseExpiryTarget,
  ) {
    super(client, target.groupName);
  }
  async schedule(tenantId: string, leaseId: string, atMs: number): Promise<void> {
    const command: LeaseCommand = { type: 'expire', tenantId, leaseId };
    try {
      await this.client.send(
        new CreateScheduleCommand({
          Name: expiryScheduleName(leaseId),
          GroupName: this.target.groupName,
          ScheduleExpression: atExpression(atMs),
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          Target: { Arn: this.target.queueArn, RoleArn: this.target.roleArn, Input: JSON.stringify(command) },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
    }
  }
}
