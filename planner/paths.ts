import { fileURLToPath } from 'node:url';

/** The team's reference data sits beside the repository, wherever the planner is started from. */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../shared/data', import.meta.url));

export const ALIBABA_TRACE = 'alibaba-gpu-2023/openb_pod_list_default.csv';
