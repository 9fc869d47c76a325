import type { RentalMode, Workload } from './lease';

export interface ModeRequest {
  readonly workload: Workload;
  readonly gpus: number;
  /** The mode the tenant asked for, if any; it wins when it can be honoured. */
  readonly requestedMode?: RentalMode | undefined;
  /** Reserved GPUs committed and not in use right now. */
  readonly freeReservedGpus: number;
}

export interface ModeDecision {
  readonly mode: RentalMode;
  /** Where the lease goes when `mode` has no capacity (spot reclaimed, launch refused). */
  readonly fallback: RentalMode | null;
  readonly reason: string;
}

/**
 * The product's default mix: long-running training on reserved capacity when a
 * commitment has room, elastic inference on-demand (never on interruptible
 * capacity), interruptible batch on spot with on-demand as the fallback.
 */
export function chooseRentalMode(request: ModeRequest): ModeDecision {
  const reservedFits = request.freeReservedGpus >= request.gpus;
  if (request.requestedMode === 'reserved') {
    return reservedFits
      ? { mode: 'reserved', fallback: 'on-demand', reason: 'requested reserved; commitment has room' }
      : { mode: 'on-demand', fallback: null, reason: 'requested reserved; no free reserved GPUs' };
  }
  if (request.requestedMode === 'spot') {
    return { mode: 'spot', fallback: 'on-demand', reason: 'requested spot' };
  }
  if (request.requestedMode === 'on-demand') {
    return { mode: 'on-demand', fallback: null, reason: 'requested on-demand' };
  }
  switch (request.workload) {
    case 'training':
      return reservedFits
        ? { mode: 'reserved', fallback: 'on-demand', reason: 'training fits the reserved commitment' }
        : { mode: 'on-demand', fallback: null, reason: 'training; no free reserved GPUs' };
    case 'inference':
      return { mode: 'on-demand', fallback: null, reason: 'inference must not be interrupted' };
    case 'batch':
      return { mode: 'spot', fallback: 'on-demand', reason: 'batch is interruptible' };
  }
}
