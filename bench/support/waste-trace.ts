/**
 * The waste benchmark's one door into planner/: the Alibaba trace, read by the
 * planner's readers.
 */
import { join } from 'node:path';
import { ALIBABA_TRACE } from '../../planner/paths';
import { readTrace } from '../../planner/trace/read-trace';
import { readSharingTasks as readTaskShares } from '../../planner/trace/sharing-tasks';
import { DEFAULT_DATA_DIR } from '../../shared/adapters/reference-data';
import type { DemandTrace } from '../../shared/planning/demand-trace';
import type { SharingTask } from '../../shared/planning/waste/fractional-replay';

export const ALIBABA_TRACE_PATH = join(DEFAULT_DATA_DIR, ALIBABA_TRACE);

export type { DemandTrace };

export const readAlibabaTrace = (): Promise<DemandTrace> => readTrace(ALIBABA_TRACE_PATH);

/** The trace's tasks with their GPU share, as `npm run simulate -- --fractional` reads them. */
export const readSharingTasks = (trace: DemandTrace): Promise<SharingTask[]> =>
  readTaskShares(ALIBABA_TRACE_PATH, trace);
