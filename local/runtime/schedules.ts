import { randomUUID } from 'node:crypto';
import type { Context, ScheduledEvent } from 'aws-lambda';
import { invoke } from './lambda-context';

type ScheduledHandler = (event: ScheduledEvent, context: Context) => Promise<unknown>;
type DestinationHandler = (event: DestinationRecord, context: Context) => Promise<unknown>;

export type ScheduledFunction = {
  readonly name: string;
  readonly handler: ScheduledHandler;
  /** Plays Lambda's on-success destination: invoked after each run that succeeds. */
  readonly onSuccess?: { readonly name: string; readonly handler: DestinationHandler };
} & (
  | {
      /** A rate: fires on the boundaries of this period. */
      readonly everyMs: number;
    }
  | {
      /** A calendar schedule (cron): the next time it fires after an instant. */
      readonly nextAtMs: (afterMs: number) => number;
    }
);

/** What Lambda hands an on-success destination function after an asynchronous invocation. */
export interface DestinationRecord {
  readonly version: '1.0';
  readonly timestamp: string;
  readonly requestContext: { readonly functionArn: string; readonly condition: 'Success' };
  readonly requestPayload: ScheduledEvent;
  readonly responsePayload: unknown;
}

/** The event EventBridge Scheduler delivers, with `time` the scheduled instant. */
export function scheduledEvent(name: string, atMs: number, region: string): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: new Date(atMs).toISOString(),
    region,
    resources: [`arn:aws:events:${region}:000000000000:rule/${name}`],
    detail: {},
  };
}

const MAX_TIMER_MS = 2 ** 31 - 1;

export interface Schedules {
  /** Runs one function now, as its schedule would at `atMs`. */
  fire(name: string, atMs?: number): Promise<unknown>;
  stop(): void;
}

/**
 * Plays EventBridge schedules: each function fires on the boundaries of its
 * period (a one-minute schedule at :00 of every minute), one run at a time.
 * Without timers, functions only run when fired (tests drive time themselves).
 */
export function startSchedules(
  functions: readonly ScheduledFunction[],
  region: string,
  armTimers: boolean,
): Schedules {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const byName = new Map(functions.map((fn) => [fn.name, fn]));
  const fire = async (name: string, atMs = Date.now()) => {
    const fn = byName.get(name);
    if (!fn) throw new Error(`No scheduled function ${name}`);
    const event = scheduledEvent(name, atMs, region);
    const result = await invoke(name, 60_000, (context) => fn.handler(event, context));
    const onSuccess = fn.onSuccess;
    if (onSuccess) {
      const record: DestinationRecord = {
        version: '1.0',
        timestamp: new Date().toISOString(),
        requestContext: {
          functionArn: `arn:aws:lambda:${region}:000000000000:function:${name}`,
          condition: 'Success',
        },
        requestPayload: event,
        responsePayload: result,
      };
      await invoke(onSuccess.name, 60_000, (context) => onSuccess.handler(record, context));
    }
    return result;
  };
  const nextOf = (fn: ScheduledFunction, afterMs: number) =>
    'nextAtMs' in fn ? fn.nextAtMs(afterMs) : Math.ceil((afterMs + 1) / fn.everyMs) * fn.everyMs;
  const arm = (fn: ScheduledFunction, next = nextOf(fn, Date.now())) => {
    if (stopped) return;
    // setTimeout holds at most ~24.8 days: a monthly schedule waits in hops.
    const delay = Math.min(next - Date.now(), MAX_TIMER_MS);
    const timer = setTimeout(async () => {
      timers.delete(timer);
      if (Date.now() < next) return arm(fn, next);
      try {
        await fire(fn.name, next);
      } catch (error) {
        console.error(`${fn.name} failed`, error);
      }
      arm(fn);
    }, delay);
    timers.add(timer);
  };
  if (armTimers) functions.forEach(arm);
  return {
    fire,
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
