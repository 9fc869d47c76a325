import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';

/** One logger, metrics and tracer per function (service name and namespace come from env). */
export const logger = new Logger();
export const metrics = new Metrics();
export const tracer = new Tracer();

/**
 * The middy chain every function starts with: tracing, structured logs with the
 * Lambda context, metrics flushed after each invocation.
 */
export function observed<Event, Result>(handler: (event: Event, context: Context) => Promise<Result>) {
  return middy(handler)
    .use(captureLambdaHandler(tracer))
    .use(injectLambdaContext(logger))
    .use(logMetrics(metrics));
}
