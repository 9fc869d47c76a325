import { readCsv } from './csv';
import { referenceData } from './paths';

export const ALIBABA_TRACE = 'alibaba-gpu-2023/openb_pod_list_default.csv';

/** A task of the Alibaba GPU trace that got whole GPUs and ran. */
export interface GpuTask {
  readonly gpus: number;
  readonly scheduledAtSeconds: number;
  readonly durationSeconds: number;
}

/** The trace's tasks that were scheduled and hold at least one whole GPU (the rest never rented one). */
export function readGpuTasks(): GpuTask[] {
  const rows = readCsv(referenceData(ALIBABA_TRACE), ['num_gpu', 'scheduled_time', 'deletion_time']);
  return rows
    .filter((row) => row.scheduled_time !== '' && Number(row.num_gpu) >= 1)
    .map((row) => ({
      gpus: Number(row.num_gpu),
      scheduledAtSeconds: Number(row.scheduled_time),
      durationSeconds: Number(row.deletion_time) - Number(row.scheduled_time),
    }))
    .filter((task) => task.durationSeconds > 0);
}
