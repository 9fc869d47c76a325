import { microToUsd } from '../../../shared/domain/money';
import { dayOf } from '../../../shared/domain/spend';
import {
  DEFAULT_USAGE_GROUPING,
  dimensionLines,
  readsLeaseRollups,
  summarizeUsage,
  USAGE_GROUPINGS,
  type UsageGrouping,
  type UsageLine,
} from '../../../shared/domain/usage';
import { usageExportCsv } from '../../../shared/domain/usage-export';
import { idleUsage } from '../../../shared/domain/waste/idle-usage';
import { leasesInRange } from '../../../shared/usecases/leases-in-range';
import * as z from '../../../shared/zod';
import { type ApiEvent, type ApiResult, json, tenantOf, validate } from '../http';
import {
  authErrors,
  errorResponse,
  historyRangeNote,
  instant as instantSchema,
  jsonContent,
  micro,
  type OpenApiGroup,
  rangeParameters,
  ref,
  responseObject,
  usd,
} from '../openapi-parts';
import {
  checkRange,
  DAY_MS,
  historyRangeQuery,
  instant,
  MAX_HISTORY_RANGE_DAYS,
  type RangeInput,
  resolveRange,
} from '../range';
import type { Routes } from '../routing';
import type { ApiContext } from './context';

const usageQuery = (nowMs: number) =>
  z
    .pipe(
      z.strictObject({
        from: z.optional(instant),
        to: z.optional(instant),
        groupBy: z._default(z.enum(USAGE_GROUPINGS), DEFAULT_USAGE_GROUPING),
      }),
      z.transform((query: RangeInput & { groupBy: UsageGrouping }) => ({
        groupBy: query.groupBy,
        ...resolveRange(query, nowMs),
      })),
    )
    .check(z.superRefine(checkRange));

/**
 * Usage from the daily rollups metering writes with each charge: a month is a
 * bounded number of items whatever the fleet size or tick count. Rollups are per
 * UTC day, so the range is widened to the whole days it touches, and the
 * answer's `from` and `to` say which.
 */
export async function getUsage(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const nowMs = ctx.deps.now();
  const range = validate(usageQuery(nowMs), event.queryStringParameters ?? {}, 'query');
  const fromDay = dayOf(range.fromMs);
  const toDay = dayOf(range.toMs - 1);
  const lines = await usageLines(ctx, tenantId, range.groupBy, fromDay, toDay);
  const summary = summarizeUsage(lines, range.groupBy);
  const idle = idleUsage(await ctx.deps.idleLedger.dailyIdle(tenantId, fromDay, toDay), range.groupBy);
  const endOfLastDay = Date.parse(`${toDay}T00:00:00Z`) + DAY_MS;
  return json(200, {
    from: `${fromDay}T00:00:00.000Z`,
    to: new Date(Math.min(endOfLastDay, Math.max(nowMs, range.toMs))).toISOString(),
    granularity: 'day',
    groupBy: range.groupBy,
    seconds: summary.seconds,
    costMicroUsd: summary.microUsd,
    costUsd: microToUsd(summary.microUsd),
    idleMicroUsd: idle.idleMicroUsd,
    groups: summary.groups.map((group) => ({
      key: group.key,
      seconds: group.seconds,
      costMicroUsd: group.microUsd,
      costUsd: microToUsd(group.microUsd),
      idleMicroUsd: idle.byGroup === undefined ? undefined : (idle.byGroup.get(group.key) ?? 0),
    })),
  });
}

/** The rollups a grouping reads: per lease, per day, or per day with storage and transfer apart. */
async function usageLines(
  ctx: ApiContext,
  tenantId: string,
  groupBy: UsageGrouping,
  fromDay: string,
  toDay: string,
): Promise<UsageLine[]> {
  if (readsLeaseRollups(groupBy)) return ctx.deps.spend.leaseDailyUsage(tenantId, fromDay, toDay);
  if (groupBy !== 'dimension') return ctx.deps.spend.dailyUsage(tenantId, fromDay, toDay);
  const [days, extras] = await Promise.all([
    ctx.deps.spend.dailyUsage(tenantId, fromDay, toDay),
    ctx.deps.spend.dimensionDailyUsage(tenantId, fromDay, toDay),
  ]);
  return dimensionLines(days, extras);
}

export async function exportUsage(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const range = validate(historyRangeQuery(ctx.deps.now()), event.queryStringParameters ?? {}, 'query');
  const leases = await leasesInRange(ctx.deps, tenantId, range.fromMs, range.toMs);
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="gpurent-usage.csv"',
    },
    body: usageExportCsv(leases, range.fromMs, range.toMs),
  };
}

export const usageRoutes = {
  'GET /v1/usage': { handle: getUsage },
  'GET /v1/usage/export': { handle: exportUsage },
} as const satisfies Routes;

export const usageOpenApi = (): OpenApiGroup<keyof typeof usageRoutes> => ({
  tag: { name: 'Usage', description: 'Metered usage and cost, from the daily rollups metering writes' },
  schemas: {
    Usage: responseObject(
      {
        from: instantSchema,
        to: instantSchema,
        granularity: { type: 'string', enum: ['day'] },
        groupBy: { type: 'string', enum: USAGE_GROUPINGS },
        seconds: {
          type: 'integer',
          description:
            'Instance-seconds billed (a multi-GPU instance counts once; GPU-hours are in /v1/profile)',
        },
        costMicroUsd: micro,
        costUsd: usd,
        idleMicroUsd: {
          ...micro,
          description:
            'What the billed seconds of GPUs below the idle line cost (the waste ledger; part of costMicroUsd)',
        },
        groups: {
          type: 'array',
          items: responseObject(
            {
              key: { type: 'string' },
              seconds: { type: 'integer', description: 'Instance-seconds billed' },
              costMicroUsd: micro,
              costUsd: usd,
              idleMicroUsd: {
                ...micro,
                description:
                  'Idle cost of the group; absent for groupBy mode and instanceType, which the waste ledger does not keep',
              },
            },
            ['idleMicroUsd'],
          ),
        },
      },
      [],
      {
        description:
          'Read from daily rollups written with every charge; the range is widened to the whole UTC days it touches, and from/to say which.',
      },
    ),
  },
  operations: {
    'GET /v1/usage': {
      operationId: 'getUsage',
      summary: 'Metered usage in a time range, grouped',
      description:
        'Instance-seconds and cost billed in the range, in total and per group (mode, lease, instance type, project, day or dimension, as groupBy says). Cost holds every dimension: compute, the volumes of the instances (storage) and data moved between regions (transfer); by dimension, storage and transfer count no instance-seconds.',
      parameters: [
        ...rangeParameters,
        {
          name: 'groupBy',
          in: 'query',
          schema: { type: 'string', enum: USAGE_GROUPINGS, default: 'mode' },
        },
      ],
      responses: {
        '200': { description: 'Usage summary', content: jsonContent(ref('Usage')) },
        '400': errorResponse('VALIDATION_FAILED'),
        ...authErrors,
      },
    },
    'GET /v1/usage/export': {
      operationId: 'exportUsage',
      summary: 'Leases that ran in a time range, as CSV (input of `npm run simulate`)',
      description: `One CSV line per lease that ran in the range, with its workload, mode, instance type, GPUs, start, end and project. ${historyRangeNote}`,
      parameters: rangeParameters,
      responses: {
        '200': {
          description: 'lease_id,workload,mode,instance_type,gpus,started_at,ended_at,project',
          content: { 'text/csv': { schema: { type: 'string' } } },
        },
        '400': errorResponse(
          `VALIDATION_FAILED: a bad from or to, or a range longer than ${MAX_HISTORY_RANGE_DAYS} days (details name the field)`,
        ),
        ...authErrors,
      },
    },
  },
});
