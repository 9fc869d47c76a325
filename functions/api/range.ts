import * as z from '../../shared/zod';

/** The `from`/`to` query of the routes that report over time. */
export const MAX_RANGE_DAYS = 400;
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

export function checkRange(range: { fromMs: number; toMs: number }, ctx: z.core.$RefinementCtx): void {
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

/** A query of only `from` and `to`, resolved against `nowMs` and checked. */
export const rangeQuery = (nowMs: number) =>
  z
    .pipe(
      z.strictObject({ from: z.optional(instant), to: z.optional(instant) }),
      z.transform((query: RangeInput) => resolveRange(query, nowMs)),
    )
    .check(z.superRefine(checkRange));
