import * as z from '../zod';
import { MAX_LEASE_MINUTES, MIN_LEASE_MINUTES } from './lease';

export { MAX_LEASE_MINUTES, MIN_LEASE_MINUTES };

/** A lease lifetime as requests carry it (a lease's own or a tenant's default). */
export const leaseDurationMinutes = z
  .number()
  .check(
    z.int('must be a whole number of minutes'),
    z.gte(MIN_LEASE_MINUTES, `must be at least ${MIN_LEASE_MINUTES} minute`),
    z.lte(MAX_LEASE_MINUTES, `must be at most ${MAX_LEASE_MINUTES} minutes (30 days)`),
  );

const MINUTE_MS = 60_000;
const AT_EXPRESSION = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/;

/**
 * When a lease created at `createdAtMs` expires: the duration it asked for, or
 * else its tenant's default, or never.
 */
export function expiryOf(
  createdAtMs: number,
  durationMinutes: number | undefined,
  tenantDefaultMinutes: number | undefined,
): number | undefined {
  const minutes = durationMinutes ?? tenantDefaultMinutes;
  return minutes === undefined ? undefined : createdAtMs + minutes * MINUTE_MS;
}

/** One schedule per lease, so creating it twice is a conflict, not a second release. */
export const expiryScheduleName = (leaseId: string) => `expire-${leaseId}`;

/**
 * EventBridge Scheduler's one-time expression, in UTC with whole seconds: the
 * instant is rounded up, so a lease never ends before the time it was given.
 */
export function atExpression(atMs: number): string {
  const seconds = new Date(Math.ceil(atMs / 1000) * 1000).toISOString().slice(0, 19);
  return `at(${seconds})`;
}

/** The instant of an `at(...)` expression (UTC), or undefined for any other expression. */
export function instantOfAtExpression(expression: string): number | undefined {
  const match = AT_EXPRESSION.exec(expression);
  return match ? Date.parse(`${match[1]}Z`) : undefined;
}
