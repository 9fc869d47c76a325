import { MAX_RESTART_MINUTES, MAX_WORK_MINUTES } from '../shared/domain/deadlines/lease-fields';
import { usageError } from './errors';

const UNIT_MINUTES: Record<string, number> = { d: 1440, h: 60, m: 1 };
const DURATION = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$/;

/**
 * A span of whole minutes written as people write it (`48h`, `90m`, `1d12h`,
 * `2h30m`, or a bare number of minutes), within the API's limits.
 */
export function minutesOption(name: string, value: string | undefined, min: number, max: number) {
  if (value === undefined) return undefined;
  const bare = /^\d+$/.test(value) ? Number(value) : undefined;
  const parts = bare === undefined ? DURATION.exec(value) : null;
  if (bare === undefined && (!parts || value === '')) {
    throw usageError(`${name} must be a duration such as 48h, 90m or 1d12h, not "${value}"`);
  }
  const minutes =
    bare ??
    (['d', 'h', 'm'] as const).reduce(
      (sum, unit, i) => sum + Number(parts?.[i + 1] ?? 0) * (UNIT_MINUTES[unit] ?? 0),
      0,
    );
  if (minutes < min || minutes > max) {
    throw usageError(`${name} must be from ${min} to ${max} minutes, not ${value} (${minutes} minutes)`);
  }
  return minutes;
}

/** A date-time the API takes (`2026-12-03T09:00Z`, with any offset), sent as UTC. */
export function deadlineOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ms = /T\d{2}:\d{2}/.test(value) && /(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) {
    throw usageError(
      `--deadline must be a date-time with a time zone, such as 2026-12-03T09:00Z, not "${value}"`,
    );
  }
  return new Date(ms).toISOString();
}

/**
 * The task's deadline fields from `--deadline`, `--work` and `--restart`; the
 * API judges them against now. `file` is a task file's task: flags may change
 * one of the deadline fields it gives.
 */
export function deadlineFields(
  options: { readonly deadline?: string; readonly work?: string; readonly restart?: string },
  file: { readonly deadline?: unknown; readonly workMinutes?: unknown } = {},
) {
  const fields = {
    deadline: deadlineOption(options.deadline),
    workMinutes: minutesOption('--work', options.work, 1, MAX_WORK_MINUTES),
    restartMinutes: minutesOption('--restart', options.restart, 0, MAX_RESTART_MINUTES),
  };
  const hasDeadline = fields.deadline !== undefined || file.deadline !== undefined;
  if (hasDeadline && fields.workMinutes === undefined && file.workMinutes === undefined)
    throw usageError('--deadline needs --work: how long the task needs on one machine, such as 48h');
  if (!hasDeadline && (fields.workMinutes !== undefined || fields.restartMinutes !== undefined))
    throw usageError('--work and --restart go with --deadline');
  return fields;
}
