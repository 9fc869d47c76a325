import { join } from 'node:path';
import { ALIBABA_TRACE, DEFAULT_DATA_DIR } from '../../planner/paths';
import { readTrace } from '../../planner/trace/read-trace';

export { ALIBABA_TRACE };

/** A task of the Alibaba GPU trace that got whole GPUs and ran. */
export interface GpuTask {
  readonly gpus: number;
  readonly scheduledAtSeconds: number;
  readonly durationSeconds: number;
}

/** The trace's leases as the planner reads them (scheduled, at least one whole GPU), that lasted at all. */
export async function readGpuTasks(): Promise<GpuTask[]> {
  const trace = await readTrace(join(DEFAULT_DATA_DIR, ALIBABA_TRACE));
  return trace.leases
    .map((lease) => ({
      gpus: lease.gpus,
      scheduledAtSeconds: (lease.startMs - trace.originMs) / 1000,
      durationSeconds: (lease.endMs - lease.startMs) / 1000,
    }))
    .filter((task) => task.durationSeconds > 0);
}
