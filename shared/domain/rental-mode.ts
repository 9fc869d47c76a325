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
 * The product's default mix: training and the steady floor of inference on
 * reserved capacity while the commitment has room (both are paid for already,
 * neither can be interrupted there), the rest of them on-demand, and
 * interruptible batch on spot with on-demand as the fallback. Inference never
 * goes to spot, not even when a tenant asks for it: a reclaim would drop
 * requests with two minutes' notice.
 */
export function chooseRentalMode(request: ModeRequest): ModeDecision {
  const reservedFits = request.freeReservedGpus >= request.gpus;
  if (request.requestedMode === 'reserved') {
    return reservedFits
      ? { mode: 'reserved', fallback: 'on-demand', reason: 'requested reserved; commitment has room' }
      : { mode: 'on-demand', fallback: null, reason: 'requested reserved; no free reserved GPUs' };
  }
  if (request.requestedMode === 'spot' && request.workload !== 'inference') {
    return { mode: 'spot', fallback: 'on-demand', reason: 'requested spot' };
  }
  if (request.requestedMode === 'on-demand') {
    return { mode: 'on-demand', fallback: null, reason: 'requested on-demand' };
  }
  const declined = request.requestedMode === 'spot' ? '; spot request declined' : '';
  switch (request.workload) {
    case 'training':
      return reservedFits
        ? { mode: 'reserved', fallback: 'on-demand', reason: 'training fits the reserved commitment' }
        : { mode: 'on-demand', fallback: null, reason: 'training; no free reserved GPUs' };
    case 'inference':
      return reservedFits
        ? {
            mode: 'reserved',
            fallback: 'on-demand',
            reason: `inference must not be interrupted; reserved commitment has room${declined}`,
          }
        : {
            mode: 'on-demand',
            fallback: null,
            reason: `inference must not be interrupted; no free reserved GPUs${declined}`,
          };
    case 'batch':
      return { mode: 'spot', fallback: 'on-demand', reason: 'batch is interruptible' };
  }
}

/**
 * Why a mode the tenant asked for can never be had, if it cannot: inference on
 * spot (never, see above) or reserved with no commitment the lease could use.
 * Such a lease is refused when it is asked for, not quietly run in another
 * mode. Reserved with a commitment that is full right now is not refused: the
 * room may be back when the lease is placed, and the placement's reason says
 * what was decided.
 */
export function refusedModeReason(request: {
  readonly workload: Workload;
  readonly requestedMode?: RentalMode | undefined;
  readonly usableCommitments: number;
}): string | undefined {
  if (request.requestedMode === 'spot' && request.workload === 'inference') {
    return 'inference never runs on spot (a reclaim drops requests with two minutes’ notice); ask on-demand or reserved, or use workload batch or training';
  }
  if (request.requestedMode === 'reserved' && request.usableCommitments === 0) {
    return 'no active reserved commitment covers the instance types and regions this lease accepts; ask on-demand, or an operator defines one (PUT /v1/admin/reservations/{id})';
  }
  return undefined;
}
