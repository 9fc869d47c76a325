import { SchedulerLeaseCancel, SchedulerLeaseExpiry } from '../adapters/scheduler-lease-expiry';
import { nonEmpty } from '../config';
import { LEASE_EXPIRY } from '../resources';
import { schedulerClient } from './clients';
import { portFactory } from './port-factory';

const GROUP = { [LEASE_EXPIRY.group.envVar]: nonEmpty };

/** Arms (and cancels) lease expiries: the API and the scaling evaluator, which create leases. */
export const leaseExpiryScheduler = () =>
  portFactory({
    env: {
      ...GROUP,
      [LEASE_EXPIRY.queueArnEnvVar]: nonEmpty,
      [LEASE_EXPIRY.roleArnEnvVar]: nonEmpty,
    },
    reaches: [{ kind: 'leaseExpiry', access: 'arm' }],
    create: (env, clients) =>
      new SchedulerLeaseExpiry(schedulerClient(clients), {
        groupName: env.LEASE_EXPIRY_SCHEDULE_GROUP,
        queueArn: env.LEASE_COMMANDS_QUEUE_ARN,
        roleArn: env.LEASE_EXPIRY_ROLE_ARN,
      }),
  });

/** Only cancels lease expiries: the lease worker, which ends leases. */
export const leaseExpiryCancel = () =>
  portFactory({
    env: GROUP,
    reaches: [{ kind: 'leaseExpiry', access: 'cancel' }],
    create: (env, clients) =>
      new SchedulerLeaseCancel(schedulerClient(clients), env.LEASE_EXPIRY_SCHEDULE_GROUP),
  });
