import { ClientError } from '../../../shared/client-error';
import { decodeLogCursor, TASK_OUTPUTS } from '../../../shared/domain/task-logs';
import { TASK_STATUSES } from '../../../shared/domain/tasks/state';
import { readLeaseLogs } from '../../../shared/usecases/lease-logs';
import * as z from '../../../shared/zod';
import { type ApiEvent, type ApiResult, json, tenantOf, validate } from '../http';
import {
  authErrors,
  errorResponse,
  instant as instantSchema,
  jsonContent,
  type OpenApiGroup,
  ref,
} from '../openapi-parts';
import { pathValue } from '../path';
import type { Routes } from '../routing';
import type { ApiContext } from './context';
import { leaseIdDoc, leaseIdParameter } from './leases';

/** GetLogEvents returns at most 10,000 events a call. */
const MAX_LIMIT = 10_000;
const DEFAULT_LIMIT = 500;
/** maxAttempts is at most 10 (issue #16). */
const MAX_ATTEMPT = 10;

const logsQuery = z.strictObject({
  attempt: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(MAX_ATTEMPT))),
  since: z.optional(
    z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time such as 2026-11-01T00:00:00Z' }),
  ),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(MAX_LIMIT)), DEFAULT_LIMIT),
  nextToken: z.optional(z.string().check(z.minLength(1))),
});

export class InvalidLogTokenError extends ClientError {
  constructor() {
    super(
      400,
      'INVALID_NEXT_TOKEN',
      'nextToken must be a nextToken value returned by this route',
      'nextToken',
    );
    this.name = 'InvalidLogTokenError';
  }
}

export async function getLeaseLogs(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const leaseId = pathValue(event, leaseIdParameter);
  const query = validate(logsQuery, event.queryStringParameters ?? {}, 'query');
  const cursor = query.nextToken === undefined ? undefined : decodeLogCursor(query.nextToken);
  if (query.nextToken !== undefined && cursor === undefined) throw new InvalidLogTokenError();
  const page = await readLeaseLogs(ctx.deps, tenantId, leaseId, {
    attempt: query.attempt,
    sinceMs: query.since === undefined ? undefined : Date.parse(query.since),
    limit: query.limit,
    cursor,
  });
  return json(200, {
    leaseId,
    attempt: page.attempt,
    taskStatus: page.taskStatus,
    exitCode: page.exitCode,
    events: page.events.map((e) => ({
      at: new Date(e.timestampMs).toISOString(),
      stream: e.output,
      message: e.message,
    })),
    nextToken: page.nextToken,
    complete: page.complete,
  });
}

export const leaseLogRoutes = {
  'GET /v1/leases/{id}/logs': { handle: getLeaseLogs },
} as const satisfies Routes;

export const leaseLogOpenApi = (): OpenApiGroup<keyof typeof leaseLogRoutes> => ({
  tag: { name: 'Task logs', description: "The output of a lease's task" },
  schemas: {
    LeaseLogs: {
      type: 'object',
      required: ['leaseId', 'taskStatus', 'events', 'nextToken', 'complete'],
      properties: {
        leaseId: { type: 'string' },
        attempt: { type: 'integer', description: 'The attempt read; absent before the first starts' },
        taskStatus: { type: 'string', enum: TASK_STATUSES },
        exitCode: { type: 'integer' },
        events: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              at: instantSchema,
              stream: { type: 'string', enum: TASK_OUTPUTS },
              message: { type: 'string' },
            },
          },
        },
        nextToken: {
          type: 'string',
          description: 'Ask again with it for what was written since; it is there even at the end',
        },
        complete: {
          type: 'boolean',
          description: 'The attempt is over and nothing more was found: a follower can stop',
        },
      },
    },
  },
  operations: {
    'GET /v1/leases/{id}/logs': {
      operationId: 'getLeaseLogs',
      summary: "A page of the output of a lease's task",
      description:
        'stdout and stderr of one attempt of the task (the latest by default), oldest first, from CloudWatch Logs. Follow the output by asking again with nextToken until complete is true.',
      parameters: [
        leaseIdDoc(),
        {
          name: 'attempt',
          in: 'query',
          schema: { type: 'integer', minimum: 1, maximum: MAX_ATTEMPT },
          description: 'The attempt to read; default: the latest',
        },
        {
          name: 'since',
          in: 'query',
          schema: instantSchema,
          description: 'Only output written at or after this instant (ignored with nextToken)',
        },
        {
          name: 'limit',
          in: 'query',
          schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
          description: 'Events per stream (stdout, stderr) in this page',
        },
        {
          name: 'nextToken',
          in: 'query',
          schema: { type: 'string' },
          description: 'nextToken of the previous page',
        },
      ],
      responses: {
        '200': { description: 'The page', content: jsonContent(ref('LeaseLogs')) },
        '400': errorResponse('INVALID_LEASE_ID, VALIDATION_FAILED or INVALID_NEXT_TOKEN'),
        '404': errorResponse('LEASE_NOT_FOUND or TASK_ATTEMPT_NOT_FOUND'),
        '409': errorResponse('LEASE_HAS_NO_TASK: the lease runs no task'),
        ...authErrors,
      },
    },
  },
});
