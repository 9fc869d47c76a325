import {
  DeleteScheduleCommand,
  GetScheduleCommand,
  paginateListSchedules,
  ResourceNotFoundException,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { GetQueueUrlCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { instantOfAtExpression } from '../../shared/domain/lease-expiry';

export interface OneTimeSchedules {
  /** Fires every one-time schedule of the group due at `nowMs`; returns how many fired. */
  fireDue(nowMs?: number): Promise<number>;
  stop(): void;
}

/**
 * Plays EventBridge Scheduler for one-time `at(...)` schedules, which moto
 * stores but never fires: lists the group's schedules, sends the input of each
 * due one to its SQS target and deletes it (ActionAfterCompletion DELETE).
 * With a period it polls on its own; tests call `fireDue` with their clock.
 */
export function startOneTimeSchedules(
  scheduler: SchedulerClient,
  sqs: SQSClient,
  groupName: string,
  pollEveryMs?: number,
): OneTimeSchedules {
  const fireDue = async (nowMs = Date.now()) => {
    let fired = 0;
    for await (const page of paginateListSchedules({ client: scheduler }, { GroupName: groupName })) {
      for (const summary of page.Schedules ?? []) {
        const schedule = await scheduler.send(
          new GetScheduleCommand({ GroupName: groupName, Name: summary.Name }),
        );
        const dueAtMs = instantOfAtExpression(schedule.ScheduleExpression ?? '');
        if (schedule.State !== 'ENABLED' || dueAtMs === undefined || dueAtMs > nowMs) continue;
        const queueName = schedule.Target?.Arn?.split(':').at(-1);
        const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: queueName }));
        await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: schedule.Target?.Input ?? '{}' }));
        fired += 1;
        if (schedule.ActionAfterCompletion === 'DELETE')
          await deleteSchedule(scheduler, groupName, summary.Name);
      }
    }
    return fired;
  };

  let timer: NodeJS.Timeout | undefined;
  if (pollEveryMs !== undefined) {
    let polling = false; // one poll at a time, so a slow poll never fires a schedule twice
    timer = setInterval(() => {
      if (polling) return;
      polling = true;
      fireDue()
        .catch((error) => console.error('lease expiry schedules failed', error))
        .finally(() => {
          polling = false;
        });
    }, pollEveryMs);
  }
  return {
    fireDue,
    stop: () => clearInterval(timer),
  };
}

async function deleteSchedule(scheduler: SchedulerClient, groupName: string, name: string | undefined) {
  try {
    await scheduler.send(new DeleteScheduleCommand({ GroupName: groupName, Name: name }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
}
