import { describe, expect, it } from 'vitest';
import {
  atExpression,
  expiryOf,
  expiryScheduleName,
  instantOfAtExpression,
  leaseDurationMinutes,
  MAX_LEASE_MINUTES,
} from '../../../shared/domain/lease-expiry';

describe('lease expiry', () => {
  it("takes the lease's own lifetime over the tenant's default, and none means never", () => {
    expect(expiryOf(1_000, 5, 60)).toBe(1_000 + 5 * 60_000);
    expect(expiryOf(1_000, undefined, 60)).toBe(1_000 + 60 * 60_000);
    expect(expiryOf(1_000, undefined, undefined)).toBeUndefined();
  });

  it('writes a UTC at() expression rounded up to the second, and reads it back', () => {
    const atMs = Date.parse('2026-11-30T18:00:00.001Z');
    expect(atExpression(atMs)).toBe('at(2026-11-30T18:00:01)');
    expect(atExpression(Date.parse('2026-11-30T18:00:00.000Z'))).toBe('at(2026-11-30T18:00:00)');
    expect(instantOfAtExpression(atExpression(atMs))).toBe(Date.parse('2026-11-30T18:00:01Z'));
    expect(instantOfAtExpression('rate(5 minutes)')).toBeUndefined();
  });

  it('names the schedule after the lease, within Scheduler’s 64 characters', () => {
    const name = expiryScheduleName('lease_01m8pkk5yyfnsn9agxndw7h54a');
    expect(name).toBe('expire-lease_01m8pkk5yyfnsn9agxndw7h54a');
    expect(name.length).toBeLessThanOrEqual(64);
  });

  it('accepts 1 minute to 30 days in whole minutes', () => {
    expect(leaseDurationMinutes.safeParse(1).success).toBe(true);
    expect(leaseDurationMinutes.safeParse(MAX_LEASE_MINUTES).success).toBe(true);
    expect(MAX_LEASE_MINUTES).toBe(43_200);
    for (const bad of [0, MAX_LEASE_MINUTES + 1, 2.5, '5']) {
      expect(leaseDurationMinutes.safeParse(bad).success).toBe(false);
    }
  });
});
