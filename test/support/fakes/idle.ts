import {
  EMPTY_IDLE_CHECKPOINT,
  type IdleCheckpoint,
  rollUpIdle,
} from '../../../shared/domain/waste/idle-ledger';
import type { IdleAlertMessage } from '../../../shared/domain/waste/idle-message';
import type { IdlePolicy } from '../../../shared/domain/waste/idle-policy';
import type {
  IdleChargeRecord,
  IdleDayTotals,
  IdleEpisode,
  IdleEpisodes,
  IdleLedger,
  IdleNotifier,
  IdlePolicies,
  IdlePolicyRepository,
  IdlePolicyScope,
} from '../../../shared/ports/idle';
import { Faults, stored } from './faults';

export class FakeIdlePolicies implements IdlePolicyRepository {
  readonly faults = new Faults<keyof IdlePolicyRepository>();
  private readonly policies = new Map<string, { admin?: IdlePolicy; tenant?: IdlePolicy }>();

  async get(tenantId: string): Promise<IdlePolicies> {
    this.faults.enter('get', [tenantId]);
    return stored(this.policies.get(tenantId) ?? {});
  }

  async ofTenants(tenantIds: readonly string[]): Promise<Map<string, IdlePolicies>> {
    this.faults.enter('ofTenants', [tenantIds]);
    return new Map(
      tenantIds.flatMap((t) => {
        const found = this.policies.get(t);
        return found ? [[t, stored(found)] as const] : [];
      }),
    );
  }

  async put(tenantId: string, scope: IdlePolicyScope, policy: IdlePolicy): Promise<void> {
    this.faults.enter('put', [tenantId, scope, policy]);
    this.policies.set(tenantId, { ...this.policies.get(tenantId), [scope]: stored(policy) });
  }

  async delete(tenantId: string, scope: IdlePolicyScope): Promise<boolean> {
    this.faults.enter('delete', [tenantId, scope]);
    const found = this.policies.get(tenantId);
    if (!found?.[scope]) return false;
    const { [scope]: _gone, ...rest } = found;
    this.policies.set(tenantId, rest);
    return true;
  }
}

const episodeKey = (tenantId: string, leaseId: string) => `${tenantId}\n${leaseId}`;

/** Episodes with DynamoDbIdleEpisodes' claim condition. */
export class FakeIdleEpisodes implements IdleEpisodes {
  readonly faults = new Faults<keyof IdleEpisodes>();
  private readonly episodes = new Map<string, IdleEpisode>();

  async open(): Promise<IdleEpisode[]> {
    this.faults.enter('open', []);
    return [...this.episodes.values()].map(stored);
  }

  async claim(episode: IdleEpisode, staleBeforeMs: number): Promise<boolean> {
    this.faults.enter('claim', [episode, staleBeforeMs]);
    const key = episodeKey(episode.tenantId, episode.leaseId);
    const found = this.episodes.get(key);
    const free =
      !found ||
      found.episodeId !== episode.episodeId ||
      (found.sentAtMs === undefined && found.claimedAtMs < staleBeforeMs);
    if (!free) return false;
    this.episodes.set(key, stored(episode));
    return true;
  }

  async markSent(tenantId: string, leaseId: string, episodeId: string, atMs: number): Promise<void> {
    this.faults.enter('markSent', [tenantId, leaseId, episodeId, atMs]);
    const key = episodeKey(tenantId, leaseId);
    const found = this.episodes.get(key);
    if (found?.episodeId === episodeId) this.episodes.set(key, { ...found, sentAtMs: atMs });
  }

  async close(tenantId: string, leaseId: string): Promise<void> {
    this.faults.enter('close', [tenantId, leaseId]);
    this.episodes.delete(episodeKey(tenantId, leaseId));
  }
}

/** The ledger with DynamoDbIdleLedger's checkpoint condition; rollups as `rollUpIdle` adds them. */
export class FakeIdleLedger implements IdleLedger {
  readonly faults = new Faults<keyof IdleLedger>();
  private readonly checkpointsByInstance = new Map<string, IdleCheckpoint>();
  private readonly rollups = new Map<
    string,
    {
      row: Omit<IdleDayTotals, 'idleGpuSeconds' | 'idleMicroUsd'>;
      idleGpuSeconds: number;
      idleMicroUsd: number;
    }
  >();

  async checkpoints(
    instances: readonly { tenantId: string; leaseId: string; instanceId: string }[],
  ): Promise<IdleCheckpoint[]> {
    this.faults.enter('checkpoints', [instances]);
    return instances.map((i) => this.checkpointsByInstance.get(i.instanceId) ?? EMPTY_IDLE_CHECKPOINT);
  }

  async record(charge: IdleChargeRecord): Promise<boolean> {
    this.faults.enter('record', [charge]);
    const current = this.checkpointsByInstance.get(charge.instanceId) ?? EMPTY_IDLE_CHECKPOINT;
    if (current.billedSeconds !== charge.from.billedSeconds) return false;
    this.checkpointsByInstance.set(charge.instanceId, stored(charge.to));
    const rows = charge.days.map((day) => ({
      tenantId: charge.tenantId,
      project: charge.project,
      leaseId: charge.leaseId,
      ...day,
    }));
    for (const [at, totals] of rollUpIdle(rows)) {
      const [, key = ''] = at.split('|');
      const [day = '', level = '', ...rest] = key.split('#');
      const kind = level === 'TENANT' ? 'tenant' : level === 'PROJECT' ? 'project' : 'lease';
      const row = {
        day,
        kind,
        ...(kind === 'project' ? { project: rest.join('#') } : {}),
        ...(kind === 'lease' ? { leaseId: rest.join('#'), project: charge.project ?? '-' } : {}),
      } as const;
      const sum = this.rollups.get(at) ?? { row, idleGpuSeconds: 0, idleMicroUsd: 0 };
      this.rollups.set(at, {
        row,
        idleGpuSeconds: sum.idleGpuSeconds + totals.idleGpuSeconds,
        idleMicroUsd: sum.idleMicroUsd + totals.idleMicroUsd,
      });
    }
    return true;
  }

  async dailyIdle(tenantId: string, fromDay: string, toDay: string): Promise<IdleDayTotals[]> {
    this.faults.enter('dailyIdle', [tenantId, fromDay, toDay]);
    return [...this.rollups]
      .filter(([at, { row }]) => at.startsWith(`${tenantId}|`) && row.day >= fromDay && row.day <= toDay)
      .map(([, { row, idleGpuSeconds, idleMicroUsd }]) => ({ ...row, idleGpuSeconds, idleMicroUsd }));
  }
}

export class FakeIdleNotifier implements IdleNotifier {
  readonly faults = new Faults<'publish'>();
  readonly messages: IdleAlertMessage[] = [];

  async publish(message: IdleAlertMessage): Promise<void> {
    this.faults.enter('publish', [message]);
    this.messages.push(stored(message));
  }
}
