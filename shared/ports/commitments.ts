import { ClientError } from '../client-error';
import type { Commitment, CommitmentHolder, MonthIdle } from '../domain/commitments';

/** A commitment as an operator defines it; holders and idle accounting are the system's. */
export type CommitmentDefinition = Omit<Commitment, 'holders' | 'idleMeteredUntilMs'>;

export type ClaimOutcome = 'claimed' | 'already-held' | 'no-room';

/** Reserved commitments and the slots leases hold on them. */
export interface CommitmentRepository {
  /** Creates or redefines; refused (CommitmentInUseError) when fewer GPUs than are held would remain. */
  put(definition: CommitmentDefinition): Promise<Commitment>;
  get(id: string): Promise<Commitment | undefined>;
  list(): Promise<Commitment[]>;
  /** One page of commitments in id order, for operators; `nextCursor` is absent on the last page. */
  page(limit: number, cursor?: string): Promise<CommitmentPage>;
  /** Deletes an unheld commitment; refused (CommitmentInUseError) while leases hold slots. */
  delete(id: string): Promise<boolean>;
  /** Takes `holder.gpus` GPUs for the lease, atomically and only while they fit. */
  claim(id: string, leaseId: string, holder: CommitmentHolder): Promise<ClaimOutcome>;
  /** Frees the lease's slots; freeing twice is harmless. */
  release(id: string, leaseId: string): Promise<void>;
  /**
   * Records idle reserved GPU time from the commitment's idle checkpoint up to
   * `untilMs` and moves the checkpoint, once: a repeated tick records nothing.
   */
  recordIdle(commitment: Commitment, untilMs: number, idle: IdleReserved): Promise<boolean>;
  /** Every commitment's idle reserved time recorded in `month` (by the month of each window's end). */
  idleInMonth(month: string): Promise<MonthIdle[]>;
}

export interface CommitmentPage {
  readonly commitments: readonly Commitment[];
  readonly nextCursor?: string | undefined;
}

export interface IdleReserved {
  readonly idleGpuSeconds: number;
  readonly idleMicroUsd: number;
}

export class CommitmentInUseError extends ClientError {
  constructor(
    readonly id: string,
    readonly heldGpus: number,
  ) {
    super(
      409,
      'RESERVATION_IN_USE',
      `Commitment ${id} carries ${heldGpus} GPUs of running leases; release them first or keep at least that many`,
    );
    this.name = 'CommitmentInUseError';
  }
}
