import { S3CheckpointStorage } from '../adapters/s3-checkpoint-storage';
import { SsmTaskRunner } from '../adapters/ssm-task-runner';
import { StsScopedCredentials } from '../adapters/sts-scoped-credentials';
import { nonEmpty } from '../config';
import type { CheckpointStorage } from '../ports/checkpoint-storage';
import type { TaskRunning } from '../ports/task-runner';
import { BUCKETS, LEASE_MACHINE_ROLE, LOG_GROUPS } from '../resources';
import { s3Client, ssmClient, stsClient } from './clients';
import { portFactory } from './port-factory';

/**
 * Starts and stops tasks through SSM Run Command; each attempt's machine
 * writes its output, checkpoints and telemetry with the lease machine role's
 * per-lease credentials, which these functions mint.
 */
export const taskRunning = () =>
  portFactory({
    env: {
      [LOG_GROUPS.taskOutput.envVar]: nonEmpty,
      [BUCKETS.checkpoints.envVar]: nonEmpty,
      [LEASE_MACHINE_ROLE.envVar]: nonEmpty,
    },
    reaches: [{ kind: 'tasks' }, { kind: 'leaseMachineRole' }],
    create: (env, clients): TaskRunning => ({
      runner: new SsmTaskRunner((region) => ssmClient(clients, region)),
      checkpointBucket: env.CHECKPOINT_BUCKET_NAME,
      taskOutputLogGroup: env.TASK_LOG_GROUP_NAME,
      machineAccess: new StsScopedCredentials(stsClient(clients), env.LEASE_MACHINE_ROLE_ARN),
    }),
  });

/** Measures leases' checkpoint prefixes for billing: s3:ListBucket on the checkpoint bucket, nothing else. */
export const checkpointStorage = () =>
  portFactory({
    env: { [BUCKETS.checkpoints.envVar]: nonEmpty },
    reaches: [{ kind: 'checkpointBucket', access: 'list' }],
    create: (env, clients): CheckpointStorage =>
      new S3CheckpointStorage(s3Client(clients), env.CHECKPOINT_BUCKET_NAME),
  });
