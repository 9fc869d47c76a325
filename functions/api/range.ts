import * as z from '../../shared/zod';

/** The `from`/`to` query of the routes that report over time. */
export const MAX_RANGE_DAYS = 400;
/**
 * The widest range of the routes that read the leases themselves (profile,
 * usage export), not daily rollups: what one request reads grows with the
 * leases in the range, so the range is held to about a quarter.
 */
export const MAX_HISTORY_RANGE_DAYS = 93;
export const DAY_MS = 86_400_000;

export const instant = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  message: 'must be an ISO-8601 date or date-time such as 2026-11-01 or 2026-11-01T00:00:00Z',
});

function startOfMonth(nowMs: number): number {
  const now = new Date(nowMs);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
}

export interface RangeInput {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

/** [from, to): defaults to the current calendar month so far. */
export function resolveRange(input: RangeInput, nowMs: number) {
  return {
    fromMs: input.from ? Date.parse(input.from) : startOfMonth(nowMs),
    toMs: input.to ? Date.parse(input.to) : nowMs,
  };
}

/** A check of a resolved range: from before to, and at most `maxDays` apart (named on `to`). */
export const rangeCheck =
  (maxDays: number) =>
  (range: { fromMs: number; toMs: number }, ctx: z.core.$RefinementCtx): void => {
    if (range.fromMs >= range.toMs)
      ctx.addIssue({ code: 'custom', message: 'from must be before to', path: ['from'] });
    if (range.toMs - range.fromMs > maxDays * DAY_MS) {
      ctx.addIssue({
        code: 'custom',
        message: `the range may span at most ${maxDays} days: set from and to at most ${maxDays} days apart (ask for a longer period in several requests)`,
        path: ['to'],
      });
    }
  };

export const checkRange = rangeCheck(MAX_RANGE_DAYS);

/** A query of only `from` and `to`, resolved against `nowMs` and checked (at most `maxDays` apart). */
export const rangeQuery = (nowMs: number, maxDays = MAX_RANGE_DAYS) =>
  z
    .pipe(
      z.strictObject({ from: z.optional(instant), to: z.optional(instant) }),
      z.transform((query: RangeInput) => resolveRange(query, nowMs)),
    )
    .check(z.superRefine(rangeCheck(maxDays)));

/** The range of a route that reads the leases of the range: at most MAX_HISTORY_RANGE_DAYS. */
export const historyRangeQuery = (nowMs: number) => rangeQuery(nowMs, MAX_HISTORY_RANGE_DAYS);
