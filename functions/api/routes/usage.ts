import { z } from 'zod';
import { microToUsd } from '../../../shared/domain/money';
import { dayOf } from '../../../shared/domain/spend';
import {
  readsLeaseRollups,
  summarizeUsage,
  USAGE_GROUPINGS,
  type UsageLine,
} from '../../../shared/domain/usage';
import { usageExportCsv } from '../../../shared/domain/usage-export';
import { allLeasesOf } from '../../../shared/usecases/all-leases';
import { type ApiEvent, type ApiResult, json, tenantOf, validate } from '../http';
import type { ApiContext } from './context';

const MAX_RANGE_DAYS = 400;
const DAY_MS = 86_400_000;

const instant = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  message: 'must be an ISO-8601 date or date-time such as 2026-11-01 or 2026-11-01T00:00:00Z',
});

function startOfMonth(nowMs: number): number {
  const now = new Date(nowMs);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
}

interface RangeInput {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

/** [from, to): defaults to the current calendar month so far. */
function resolveRange(input: RangeInput, nowMs: number) {
  return {
    fromMs: input.from ? Date.parse(input.from) : startOfMonth(nowMs),
    toMs: input.to ? Date.parse(input.to) : nowMs,
  };
}

function checkRange(range: { fromMs: number; toMs: number }, ctx: z.RefinementCtx): void {
  if (range.fromMs >= range.toMs)
    ctx.addIssue({ code: 'custom', message: 'from must be before to', path: ['from'] });
  if (range.toMs - range.fromMs > MAX_RANGE_DAYS * DAY_MS) {
    ctx.addIssue({
      code: 'custom',
      message: `the range may span at most ${MAX_RANGE_DAYS} days`,
      path: ['to'],
    });
  }
}

const usageQuery = (nowMs: number) =>
  z
    .strictObject({
      from: instant.optional(),
      to: instant.optional(),
      groupBy: z.enum(USAGE_GROUPINGS).default('mode'),
    })
    .transform((query) => ({ groupBy: query.groupBy, ...resolveRange(query, nowMs) }))
    .superRefine(checkRange);

const exportQuery = (nowMs: number) =>
  z
    .strictObject({ from: instant.optional(), to: instant.optional() })
    .transform((query) => resolveRange(query, nowMs))
    .superRefine(checkRange);

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
  const lines: UsageLine[] = readsLeaseRollups(range.groupBy)
    ? await ctx.deps.spend.leaseDailyUsage(tenantId, fromDay, toDay)
    : await ctx.deps.spend.dailyUsage(tenantId, fromDay, toDay);
  const summary = summarizeUsage(lines, range.groupBy);
  const endOfLastDay = Date.parse(`${toDay}T00:00:00Z`) + DAY_MS;
  return json(200, {
    from: `${fromDay}T00:00:00.000Z`,
    to: new Date(Math.min(endOfLastDay, Math.max(nowMs, range.toMs))).toISOString(),
    granularity: 'day',
    groupBy: range.groupBy,
    seconds: summary.seconds,
    costMicroUsd: summary.microUsd,
    costUsd: microToUsd(summary.microUsd),
    groups: summary.groups.map((group) => ({
      key: group.key,
      seconds: group.seconds,
      costMicroUsd: group.microUsd,
      costUsd: microToUsd(group.microUsd),
    })),
  });
}

export async function exportUsage(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const range = validate(exportQuery(ctx.deps.now()), event.queryStringParameters ?? {}, 'query');
  const leases = await allLeasesOf(ctx.deps.leases, tenantId);
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="gpurent-usage.csv"',
    },
    body: usageExportCsv(leases, range.fromMs, range.toMs),
  };
}
