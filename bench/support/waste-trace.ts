/**
 * The waste benchmark's one door into planner/: the Alibaba trace, read by the
 * planner's readers.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ALIBABA_TRACE } from '../../planner/paths';
import { ALIBABA_COLUMNS, ALIBABA_HEADER } from '../../planner/trace/alibaba';
import { splitCsv } from '../../planner/trace/csv';
import { readTrace } from '../../planner/trace/read-trace';
import { DEFAULT_DATA_DIR } from '../../shared/adapters/reference-data';
import type { DemandTrace } from '../../shared/planning/demand-trace';
import type { SharingTask } from '../../shared/planning/waste/fractional-replay';

export const ALIBABA_TRACE_PATH = join(DEFAULT_DATA_DIR, ALIBABA_TRACE);

export type { DemandTrace };

export const readAlibabaTrace = (): Promise<DemandTrace> => readTrace(ALIBABA_TRACE_PATH);

/**
 * The trace's scheduled GPU tasks with their GPU share (`gpu_milli` / 1000 for
 * one-GPU tasks), which the planner's reader leaves out (it counts whole GPUs).
 */
export async function readSharingTasks(trace: DemandTrace): Promise<SharingTask[]> {
  const { header, rows } = splitCsv(await readFile(ALIBABA_TRACE_PATH, 'utf8'));
  if (header !== ALIBABA_HEADER) throw new Error(`${ALIBABA_TRACE_PATH}: unexpected header ${header}`);
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
