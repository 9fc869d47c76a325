import { Client } from '@smithy/core/client';
import { currentInvocation } from '../../local/runtime/lambda-context';

/** Who made calls outside any function: the stand-ins of the machines and AWS (agent, telemetry, schedules). */
export const OUTSIDE_FUNCTIONS = 'local stand-ins';

export interface SdkCall {
  /** The function whose invocation made the call, or OUTSIDE_FUNCTIONS. */
  readonly functionName: string;
  /** e.g. `DynamoDB.Query`, `SQS.SendMessage`. */
  readonly operation: string;
  readonly ms: number;
  /** What the call named: table and index, queue, or filters (for tracing one request's calls). */
  readonly target?: string;
}

export interface SdkCallRecorder {
  /** The calls made since the last `take` (or since recording started), emptied. */
  take(): SdkCall[];
  stop(): void;
}

/**
 * Records every AWS SDK call this process makes, with the function it was
 * made for (read from the local runtime's invocation scope) and how long it
 * took. Every v3 client's `send` is Smithy's `Client.prototype.send`, so one
 * wrapper sees DynamoDB, SQS, EventBridge, EC2, … alike; the document
 * client's commands are counted once, as the DynamoDB operation they send.
 */
export function recordSdkCalls(): SdkCallRecorder {
  const prototype = Client.prototype as unknown as { send: (...args: unknown[]) => Promise<unknown> };
  const original = prototype.send;
  let calls: SdkCall[] = [];
  prototype.send = async function recordedSend(this: object, ...args: unknown[]) {
    const command = args[0] as object;
    const service = this.constructor.name.replace(/DocumentClient$|Client$/, '');
    const operation = `${service}.${command.constructor.name.replace(/Command$/, '')}`;
    const functionName = currentInvocation.getStore()?.functionName ?? OUTSIDE_FUNCTIONS;
    const started = performance.now();
    try {
      return await original.apply(this, args);
    } finally {
      calls.push({ functionName, operation, ms: performance.now() - started, target: targetOf(command) });
    }
  };
  return {
    take() {
      const taken = calls;
      calls = [];
      return taken;
    },
    stop() {
      prototype.send = original;
    },
  };
}

/** Calls per function and operation: count and total milliseconds. */
export function tallyCalls(
  calls: readonly SdkCall[],
): Record<string, Record<string, { count: number; ms: number }>> {
  const tally: Record<string, Record<string, { count: number; ms: number }>> = {};
  for (const call of calls) {
    const byOperation = tally[call.functionName] ?? {};
    tally[call.functionName] = byOperation;
    const entry = byOperation[call.operation] ?? { count: 0, ms: 0 };
    byOperation[call.operation] = { count: entry.count + 1, ms: entry.ms + call.ms };
  }
  return tally;
}

function targetOf(command: object): string | undefined {
  const input = (command as { input?: Record<string, unknown> }).input ?? {};
  const parts = [
    input.TableName,
    input.IndexName,
    input.KeyConditionExpression,
    input.Filters && JSON.stringify(input.Filters),
  ].filter((part) => typeof part === 'string');
  return parts.length > 0 ? parts.join(' ') : undefined;
}
