import type { Workload } from '../domain/lease';

export const TRACE_FORMATS = ['alibaba-gpu-2023', 'usage-export'] as const;
export type TraceFormat = (typeof TRACE_FORMATS)[number];

/** One lease of the demand trace: `gpus` GPUs held from `startMs` to `endMs`. */
export interface TraceLease {
  readonly id: string;
  readonly workload: Workload;
  readonly gpus: number;
  readonly startMs: number;
  /** When the work is done; the replayed policy never sees it before it happens. */
  readonly endMs: number;
}

export interface DemandTrace {
  readonly format: TraceFormat;
  /** Leases by start time. */
  readonly leases: readonly TraceLease[];
  /** The trace's time zero: reservation terms start here and spot tick 0 lines up with it. */
  readonly originMs: number;
  /** The last timestamp of the trace. */
  readonly endMs: number;
  /** What reading this particular trace assumed, in words, for the report. */
  readonly notes: readonly string[];
}
