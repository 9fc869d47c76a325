import { describe, expect, it } from 'vitest';
import { deadlineFieldsSchema, deadlineTerms } from '../../../../shared/domain/deadlines/lease-fields';
import * as z from '../../../../shared/zod';

const NOW = Date.parse('2026-12-01T09:00:00Z');
const parse = (input: unknown) => z.safeParse(deadlineFieldsSchema(NOW), input);
const codesOf = (input: unknown) => {
  const result = parse(input);
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.code]);
};
const deadlineCode = (input: unknown) => {
  const result = parse(input);
  if (result.success) return null;
  const issue = result.error.issues.find((i) => i.path[0] === 'deadline') as { params?: { code?: string } };
  return issue?.params?.code ?? null;
};

describe('deadline fields of a lease', () => {
  it('accepts a deadline after now plus the work, defaulting the restart to 5 minutes', () => {
    const result = parse({ deadline: '2026-12-03T09:00:00Z', workMinutes: 2880 });
    expect(result.success && result.data).toEqual({
      deadline: '2026-12-03T09:00:00Z',
      workMinutes: 2880,
      restartMinutes: 5,
    });
    expect(result.success && deadlineTerms(result.data)).toEqual({
      deadlineMs: Date.parse('2026-12-03T09:00:00Z'),
      workMs: 2880 * 60_000,
      restartMs: 300_000,
    });
  });

  it('refuses a deadline in the past or at now, and one before now plus the work, each with its code', () => {
    expect(deadlineCode({ deadline: '2026-12-01T08:00:00Z', workMinutes: 60 })).toBe('DEADLINE_IN_PAST');
    expect(deadlineCode({ deadline: '2026-12-01T09:00:00Z', workMinutes: 60 })).toBe('DEADLINE_IN_PAST');
    expect(deadlineCode({ deadline: '2026-12-01T09:59:00Z', workMinutes: 60 })).toBe('DEADLINE_BEFORE_WORK');
    expect(deadlineCode({ deadline: '2026-12-01T10:00:00Z', workMinutes: 60 })).toBeNull();
  });

  it('names the field that is missing and says what each bad one should be', () => {
    const messages = (input: unknown) => {
      const result = parse(input);
      return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
    };
    expect(messages({ workMinutes: 60 })).toEqual([
      ['deadline', 'deadline is needed with workMinutes and restartMinutes'],
    ]);
    expect(messages({ deadline: '2026-12-09T09:00:00Z' })).toEqual([
      ['workMinutes', 'workMinutes is needed with a deadline'],
    ]);
    expect(messages({ deadline: '2026-12-09', workMinutes: 1.5, restartMinutes: '5' })).toEqual([
      ['deadline', 'must be a date-time with an offset, such as 2026-12-03T09:00:00Z'],
      ['workMinutes', 'must be a whole number of minutes'],
      ['restartMinutes', 'must be a whole number of minutes'],
    ]);
    expect(messages({ deadline: '2026-12-09T09:00:00Z', workMinutes: 0 })).toEqual([
      ['workMinutes', 'must be at least 1 minute'],
    ]);
  });

  it('refuses work and restarts that are not whole minutes in range, and unknown fields', () => {
    expect(codesOf({ deadline: '2026-12-09T09:00:00Z', workMinutes: 1.5 })).toEqual([
      ['workMinutes', 'invalid_type'],
    ]);
    expect(codesOf({ deadline: '2026-12-09T09:00:00Z', workMinutes: 0 })).toEqual([
      ['workMinutes', 'too_small'],
    ]);
    expect(codesOf({ deadline: '2027-02-09T09:00:00Z', workMinutes: 43_201 })).toEqual([
      ['workMinutes', 'too_big'],
    ]);
    expect(codesOf({ deadline: '2026-12-09T09:00:00Z', workMinutes: 60, restartMinutes: -1 })).toEqual([
      ['restartMinutes', 'too_small'],
    ]);
    expect(codesOf({ deadline: '2026-12-09T09:00:00Z', workMinutes: 60, restartMinutes: 181 })).toEqual([
      ['restartMinutes', 'too_big'],
    ]);
    expect(codesOf({ deadline: 'tomorrow', workMinutes: 60 })).toEqual([['deadline', 'invalid_format']]);
    expect(codesOf({ deadline: '2026-12-09T09:00:00Z', workMinutes: 60, mode: 'spot' })).toEqual([
      ['', 'unrecognized_keys'],
    ]);
  });
});
