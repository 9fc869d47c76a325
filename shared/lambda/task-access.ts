import { CloudWatchTaskLogs } from '../adapters/cloudwatch-task-logs';
import { StsScopedCredentials } from '../adapters/sts-scoped-credentials';
import { nonEmpty } from '../config';
import type { ScopedCredentials } from '../ports/scoped-credentials';
import type { TaskLogs } from '../ports/task-logs';
import { LOG_GROUPS, SESSION_ROLE } from '../resources';
import { cloudWatchLogsClient, stsClient } from './clients';
import { portFactory } from './port-factory';

/** The tasks' output in CloudWatch Logs, read only. */
export const taskLogReader = () =>
  portFactory({
    env: { [LOG_GROUPS.taskOutput.envVar]: nonEmpty },
    reaches: [{ kind: 'logGroup', logGroup: 'taskOutput', access: 'read' }],
    create: (env, clients): TaskLogs =>
      new CloudWatchTaskLogs(cloudWatchLogsClient(clients), env.TASK_LOG_GROUP_NAME),
  });

/** Credentials of the lease session role, each narrowed to one lease's instances. */
export const leaseSessionCredentials = () =>
  portFactory({
    env: { [SESSION_ROLE.envVar]: nonEmpty },
    reaches: [{ kind: 'sessionRole' }],
    create: (env, clients): ScopedCredentials =>
      new StsScopedCredentials(stsClient(clients), env.SESSION_ROLE_ARN),
  });
