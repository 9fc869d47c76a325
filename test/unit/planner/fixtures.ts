import { fileURLToPath } from 'node:url';
import type { TraceLease } from '../../../shared/planning/demand-trace';

/** The planner fixtures: a made-up spot data folder with one-hour ticks, and small traces. */
export const FIXTURE_DATA_DIR = fileURLToPath(new URL('../../fixtures/planner/data', import.meta.url));

export function fixturePath(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/planner/${name}`, import.meta.url));
}

export const ORIGIN = Date.UTC(2026, 0, 1);
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const MINUTE = 60_000;

/** A lease from `fromMs` to `toMs` after ORIGIN. */
export function lease(
  id: string,
  workload: TraceLease['workload'],
  gpus: number,
  fromMs: number,
  toMs: number,
) {
  return { id, workload, gpus, startMs: ORIGIN + fromMs, endMs: ORIGIN + toMs };
}

export function traceOf(leases: readonly TraceLease[]) {
  return {
    format: 'usage-export' as const,
    leases: [...leases].sort((a, b) => a.startMs - b.startMs),
    originMs: ORIGIN,
    endMs: Math.max(...leases.map((l) => l.endMs)),
    notes: [],
  };
}
