import {
  type Commitment,
  type CommitmentHolder,
  committedGpus,
  type MonthIdle,
  usedGpus,
} from '../../../shared/domain/commitments';
import { monthOfCharge } from '../../../shared/domain/spend';
import {
  type ClaimOutcome,
  type CommitmentDefinition,
  CommitmentInUseError,
  type CommitmentPage,
  type CommitmentRepository,
  type IdleReserved,
} from '../../../shared/ports/commitments';
import { Faults, stored } from './faults';

/**
 * Commitments with DynamoDbCommitmentRepository's rules: redefining below the
 * GPUs held, or deleting a held one, is CommitmentInUseError; a claim takes
 * slots only while they fit; idle time is recorded once per checkpoint and
 * summed per month of each window's end.
 */
export class FakeCommitmentRepository implements CommitmentRepository {
  readonly faults = new Faults<keyof CommitmentRepository>();
  private readonly commitments = new Map<string, Commitment>();
  private readonly idle = new Map<string, MonthIdle>();

  async put(definition: CommitmentDefinition): Promise<Commitment> {
    this.faults.enter('put', [definition]);
    const current = this.commitments.get(definition.id);
    const committed = definition.count * definition.gpusPerInstance;
    if (current && usedGpus(current) > committed) {
      throw new CommitmentInUseError(definition.id, committedGpus(current));
    }
    const next: Commitment = {
      ...definition,
      holders: current?.holders ?? {},
      idleMeteredUntilMs: current?.idleMeteredUntilMs ?? definition.startMs,
    };
    this.commitments.set(definition.id, stored(next));
    return stored(next);
  }

  async get(id: string): Promise<Commitment | undefined> {
    this.faults.enter('get', [id]);
    const commitment = this.commitments.get(id);
    return commitment && stored(commitment);
  }

  async list(): Promise<Commitment[]> {
    this.faults.enter('list', []);
    return this.sorted();
  }

  async page(limit: number, cursor?: string): Promise<CommitmentPage> {
    this.faults.enter('page', [limit, cursor]);
    const rest = this.sorted().filter((c) => cursor === undefined || c.id > cursor);
    const page = rest.slice(0, limit);
    return { commitments: page, nextCursor: rest.length > limit ? page.at(-1)?.id : undefined };
  }

  async delete(id: string): Promise<boolean> {
    this.faults.enter('delete', [id]);
    const current = this.commitments.get(id);
    if (!current) return false;
    if (usedGpus(current) > 0) throw new CommitmentInUseError(id, usedGpus(current));
    return this.commitments.delete(id);
  }

  async claim(id: string, leaseId: string, holder: CommitmentHolder): Promise<ClaimOutcome> {
    this.faults.enter('claim', [id, leaseId, holder]);
    const current = this.commitments.get(id);
    if (!current) return 'no-room';
    if (current.holders[leaseId]) return 'already-held';
    if (usedGpus(current) + holder.gpus > committedGpus(current)) return 'no-room';
    this.commitments.set(id, stored({ ...current, holders: { ...current.holders, [leaseId]: holder } }));
    return 'claimed';
  }

  async release(id: string, leaseId: string): Promise<void> {
    this.faults.enter('release', [id, leaseId]);
    const current = this.commitments.get(id);
    if (!current?.holders[leaseId]) return;
    const { [leaseId]: _freed, ...holders } = current.holders;
    this.commitments.set(id, stored({ ...current, holders }));
  }

  async recordIdle(commitment: Commitment, untilMs: number, idle: IdleReserved): Promise<boolean> {
    this.faults.enter('recordIdle', [commitment, untilMs, idle]);
    const current = this.commitments.get(commitment.id);
    if (!current || current.idleMeteredUntilMs !== commitment.idleMeteredUntilMs) return false;
    this.commitments.set(commitment.id, { ...current, idleMeteredUntilMs: untilMs });
    const month = monthOfCharge(untilMs);
    const monthKey = `${month}\n${commitment.id}`;
    const before = this.idle.get(monthKey);
    this.idle.set(monthKey, {
      commitmentId: commitment.id,
      instanceType: commitment.instanceType,
      committedGpus: committedGpus(commitment),
      hourlyMicroUsd: commitment.hourlyMicroUsd,
      idleGpuSeconds: (before?.idleGpuSeconds ?? 0) + idle.idleGpuSeconds,
      idleMicroUsd: (before?.idleMicroUsd ?? 0) + idle.idleMicroUsd,
    });
    return true;
  }

  async idleInMonth(month: string): Promise<MonthIdle[]> {
    this.faults.enter('idleInMonth', [month]);
    return [...this.idle.entries()]
      .filter(([monthKey]) => monthKey.startsWith(`${month}\n`))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, idle]) => ({ ...idle }));
  }

  private sorted(): Commitment[] {
    return [...this.commitments.values()].sort((a, b) => a.id.localeCompare(b.id)).map(stored);
  }
}
