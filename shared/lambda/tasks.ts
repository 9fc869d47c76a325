import { SsmTaskRunner } from '../adapters/ssm-task-runner';
import { StsScopedCredentials } from '../adapters/sts-scoped-credentials';
import { nonEmpty } from '../config';
import type { TaskRunning } from '../ports/task-runner';
import { BUCKETS, CHECKPOINT_ROLE, LOG_GROUPS } from '../resources';
import { ssmClient, stsClient } from './clients';
import { portFactory } from './port-factory';

/**
 * Starts and stops tasks through SSM Run Command; output to the task log
 * group, checkpoints in the bucket through the checkpoint role's per-lease credentials.
 */
export const taskRunning = () =>
  portFactory({
    env: {
      [LOG_GROUPS.taskOutput.envVar]: nonEmpty,
      [BUCKETS.checkpoints.envVar]: nonEmpty,
      [CHECKPOINT_ROLE.envVar]: nonEmpty,
    },
    reaches: [{ kind: 'tasks' }, { kind: 'checkpointRole' }],
    create: (env, clients): TaskRunning => ({
      runner: new SsmTaskRunner((region) => ssmClient(clients, region), env.TASK_LOG_GROUP_NAME),
      checkpointBucket: env.CHECKPOINT_BUCKET_NAME,
      checkpointAccess: new StsScopedCredentials(stsClient(clients), env.CHECKPOINT_ROLE_ARN),
    }),
  });
