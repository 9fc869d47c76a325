import { SchedulerLeaseExpiry } from '../adapters/scheduler-lease-expiry';
import { nonEmpty } from '../config';
import { createSchedulerClient } from './clients';

/** Environment of the functions that arm or cancel lease expiries: the API and the control plane. */
export const leaseExpiryConfig = {
  LEASE_EXPIRY_SCHEDULE_GROUP: nonEmpty,
  LEASE_COMMANDS_QUEUE_ARN: nonEmpty,
  LEASE_EXPIRY_ROLE_ARN: nonEmpty,
};

export interface LeaseExpiryConfig {
  readonly LEASE_EXPIRY_SCHEDULE_GROUP: string;
  readonly LEASE_COMMANDS_QUEUE_ARN: string;
  readonly LEASE_EXPIRY_ROLE_ARN: string;
}

export const createLeaseExpiry = (config: LeaseExpiryConfig) =>
  new SchedulerLeaseExpiry(createSchedulerClient(), {
    groupName: config.LEASE_EXPIRY_SCHEDULE_GROUP,
    queueArn: config.LEASE_COMMANDS_QUEUE_ARN,
    roleArn: config.LEASE_EXPIRY_ROLE_ARN,
  });
