import { readFile } from 'node:fs/promises';
import type { DemandTrace } from '../../shared/planning/demand-trace';
import type { SharingTask } from '../../shared/planning/waste/fractional-replay';
import { ALIBABA_COLUMNS, ALIBABA_HEADER } from './alibaba';
import { splitCsv } from './csv';
import { TraceFormatError } from './trace-format-error';

/**
 * The trace's scheduled GPU tasks with their GPU share (`gpu_milli` / 1000 for
 * one-GPU tasks), which the trace reader leaves out (it counts whole GPUs).
 * Only the Alibaba pod list has a share; other traces are refused.
 */
export async function readSharingTasks(path: string, trace: DemandTrace): Promise<SharingTask[]> {
  const { header, rows } = splitCsv(await readFile(path, 'utf8'));
  if (header !== ALIBABA_HEADER) {
    throw new TraceFormatError(path, 1, `--fractional needs the Alibaba pod list (${ALIBABA_HEADER})`);
  }
  const milliColumn = ALIBABA_COLUMNS.indexOf('gpu_milli');
  const shareOf = new Map(
    rows.map((row) => [row.fields[0] ?? '', Number(row.fields[milliColumn] ?? '1000') / 1000]),
  );
  return trace.leases.map((lease) => ({
    id: lease.id,
    gpus: lease.gpus,
    gpuShare: lease.gpus === 1 ? (shareOf.get(lease.id) ?? 1) : 1,
    startMs: lease.startMs,
    endMs: lease.endMs,
  }));
}
