import { ClientError } from '../../client-error';
import { monthBounds, monthOf } from '../spend';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Why a month cannot be audited: not `yyyy-mm`, or not begun yet. */
export class AuditMonthError extends ClientError {
  constructor(code: 'INVALID_MONTH' | 'MONTH_IN_FUTURE', message: string) {
    super(400, code, message, 'month');
    this.name = 'AuditMonthError';
  }
}

/** A month that can be audited at `nowMs`: the current one (month to date) or any before it. */
export function auditableMonth(value: string, nowMs: number): string {
  if (!MONTH.test(value)) {
    throw new AuditMonthError('INVALID_MONTH', `month must be yyyy-mm with a month 01-12, such as 2026-10`);
  }
  if (monthBounds(value).startMs > nowMs) {
    throw new AuditMonthError(
      'MONTH_IN_FUTURE',
      `month ${value} has not begun; audit ${monthOf(nowMs)} (to date) or an earlier month`,
    );
  }
  return value;
}

/** The month before the one `atMs` falls in: what the audit schedule on the 1st builds. */
export function monthBefore(atMs: number): string {
  const at = new Date(atMs);
  return monthOf(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, 1));
}

/**
 * When the audit schedule fires: 00:30 UTC on the 1st, once the midnight
 * metering tick has charged the last seconds of the month before. The CDK
 * schedule and the local runtime both read this.
 */
export const AUDIT_SCHEDULE = { minute: 30, hour: 0, day: 1 } as const;

/** The first time the audit schedule fires after `afterMs`. */
export function nextAuditRunAfter(afterMs: number): number {
  const at = new Date(afterMs);
  const { minute, hour, day } = AUDIT_SCHEDULE;
  const thisMonth = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), day, hour, minute);
  return thisMonth > afterMs
    ? thisMonth
    : Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, day, hour, minute);
}
