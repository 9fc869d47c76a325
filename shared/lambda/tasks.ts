import { SsmTaskRunner } from '../adapters/ssm-task-runner';
import { nonEmpty } from '../config';
import type { TaskRunning } from '../ports/task-runner';
import { BUCKETS, LOG_GROUPS } from '../resources';
import { ssmClient } from './clients';
import { portFactory } from './port-factory';

/** Starts and stops tasks through SSM Run Command; output to the task log group, checkpoints in the bucket. */
export const taskRunning = () =>
  portFactory({
    env: { [LOG_GROUPS.taskOutput.envVar]: nonEmpty, [BUCKETS.checkpoints.envVar]: nonEmpty },
    reaches: [{ kind: 'tasks' }],
    create: (env, clients): TaskRunning => ({
      runner: new SsmTaskRunner((region) => ssmClient(clients, region), env.TASK_LOG_GROUP_NAME),
      checkpointBucket: env.CHECKPOINT_BUCKET_NAME,
    }),
  });
