import { RENTAL_MODES, WORKLOADS } from '../../shared/domain/lease';
import type { DemandTrace, TraceLease } from '../../shared/planning/demand-trace';
import * as z from '../../shared/zod';
import { type CsvRow, parseRow } from './csv';
import { wholeNumber } from './fields';
import { TraceFormatError } from './trace-format-error';

const UTC_EXAMPLE = '2026-11-30T12:00:00.000Z';

const exportRow = z.object({
  lease_id: z.string().check(z.minLength(1, 'lease_id is empty')),
  workload: z.enum(WORKLOADS, `workload must be one of ${WORKLOADS.join(', ')}`),
  mode: z.enum(RENTAL_MODES, `mode must be one of ${RENTAL_MODES.join(', ')}`),
  instance_type: z.string().check(z.minLength(1, 'instance_type is empty')),
  gpus: wholeNumber('gpus').check(z.refine((gpus: number) => gpus >= 1, 'gpus must be at least 1')),
  started_at: z.iso.datetime(`started_at must be an ISO-8601 UTC time like ${UTC_EXAMPLE}`),
  ended_at: z.union([
    z.literal(''),
    z.iso.datetime(`ended_at must be empty (still running) or an ISO-8601 UTC time like ${UTC_EXAMPLE}`),
  ]),
  /** Absent from exports made before leases had a project label. */
  project: z.optional(z.string()),
});

/**
 * Our own `GET /v1/usage/export`: one lease per row. A lease still running has
 * no ended_at; it is taken to run until the last timestamp in the file, the
 * latest moment the export knows about.
 */
export function parseUsageExportRows(
  rows: readonly CsvRow[],
  columns: readonly string[],
  source: string,
): DemandTrace {
  const parsed = rows.map((row) => ({ row, lease: parseRow(exportRow, columns, row, source) }));
  const firstLine = new Map<string, number>();
  let originMs = Number.POSITIVE_INFINITY;
  let lastMs = Number.NEGATIVE_INFINITY;
  for (const { row, lease } of parsed) {
    const seen = firstLine.get(lease.lease_id);
    if (seen !== undefined) {
      throw new TraceFormatError(source, row.line, `lease_id ${lease.lease_id} repeats line ${seen}`);
    }
    firstLine.set(lease.lease_id, row.line);
    const startedMs = Date.parse(lease.started_at);
    const endedMs = lease.ended_at === '' ? startedMs : Date.parse(lease.ended_at);
    if (endedMs < startedMs) {
      throw new TraceFormatError(
        source,
        row.line,
        `ended_at ${lease.ended_at} is before started_at ${lease.started_at}`,
      );
    }
    originMs = Math.min(originMs, startedMs);
    lastMs = Math.max(lastMs, endedMs);
  }
  const leases: TraceLease[] = parsed.map(({ lease }) => ({
    id: lease.lease_id,
    workload: lease.workload,
    gpus: lease.gpus,
    startMs: Date.parse(lease.started_at),
    endMs: lease.ended_at === '' ? lastMs : Date.parse(lease.ended_at),
  }));
  const running = parsed.filter(({ lease }) => lease.ended_at === '').length;
  return {
    format: 'usage-export',
    leases,
    originMs,
    endMs: lastMs,
    notes: [
      `Usage export: ${leases.length} leases; time zero is the first started_at (${iso(originMs)}).`,
      `${running === 1 ? '1 lease' : `${running} leases`} without ended_at still running: taken to run until ` +
        `${iso(lastMs)}, the last timestamp in the file.`,
      'The exported mode and instance_type are not replayed: the policy decides the mode again and every GPU ' +
        'is priced as a p3.2xlarge, the only type with spot traces.',
    ],
  };
}

function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : 'n/a';
}
