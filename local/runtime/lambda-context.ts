import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/** The Context Lambda hands a function, with a deadline like a real invocation's. */
export function lambdaContext(functionName: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  const fail = () => {
    throw new Error('Legacy callbacks are not supported by the local runtime');
  };
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: fail,
    fail,
    succeed: fail,
  };
}

/**
 * Which function the code running now belongs to. Locally every function
 * shares one process; the load benchmark reads this to count each one's AWS
 * calls apart (the stand-ins of the machines run outside any function).
 */
export const currentInvocation = new AsyncLocalStorage<Context>();

/** Runs one invocation of a function as Lambda would: with its Context, inside its scope. */
export function invoke<Result>(
  functionName: string,
  timeoutMs: number,
  run: (context: Context) => Promise<Result>,
): Promise<Result> {
  const context = lambdaContext(functionName, timeoutMs);
  return currentInvocation.run(context, () => run(context));
}
