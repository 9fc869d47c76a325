import type { ScheduledEvent } from 'aws-lambda';
import { metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { askOpenDeadlineJobs } from '../../shared/usecases/deadline-schedule';
import { deadlineScheduleWiring } from './wiring';

const deps = buildPorts(deadlineScheduleWiring);

/** Every two minutes (DEADLINE_SCHEDULE_MINUTES): the worker looks again at each open job with a deadline. */
export const handler = observed(async (event: ScheduledEvent) => {
  const asked = await askOpenDeadlineJobs(deps, Date.parse(event.time));
  metrics.addMetric('DeadlineJobsAsked', 'Count', asked);
  return { asked };
});
