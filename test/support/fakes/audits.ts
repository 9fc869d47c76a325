import type { AuditSummaryMessage } from '../../../shared/domain/audit/audit-summary';
import type { MonthlyAudit } from '../../../shared/domain/audit/monthly-audit';
import type { AuditNotifier, AuditStore, StoredAudit } from '../../../shared/ports/audits';
import { Faults, stored } from './faults';

/** Audits as DynamoDbAuditStore keeps them: written once, announced after one (or a stale-taken) claim. */
export class FakeAuditStore implements AuditStore {
  readonly faults = new Faults<keyof AuditStore>();
  private readonly audits = new Map<string, StoredAudit>();

  async get(tenantId: string, month: string): Promise<StoredAudit | undefined> {
    this.faults.enter('get', [tenantId, month]);
    const found = this.audits.get(`${tenantId}\n${month}`);
    return found && stored(found);
  }

  async putIfAbsent(audit: MonthlyAudit): Promise<boolean> {
    this.faults.enter('putIfAbsent', [audit]);
    const key = `${audit.tenantId}\n${audit.month}`;
    if (this.audits.has(key)) return false;
    this.audits.set(key, { audit: stored(audit) });
    return true;
  }

  async claimAnnouncement(
    tenantId: string,
    month: string,
    atMs: number,
    staleBeforeMs: number,
  ): Promise<boolean> {
    this.faults.enter('claimAnnouncement', [tenantId, month, atMs, staleBeforeMs]);
    const key = `${tenantId}\n${month}`;
    const current = this.audits.get(key);
    if (!current || current.announcedAtMs !== undefined) return false;
    if (current.claimedAtMs !== undefined && current.claimedAtMs >= staleBeforeMs) return false;
    this.audits.set(key, { ...current, claimedAtMs: atMs });
    return true;
  }

  async markAnnounced(tenantId: string, month: string, atMs: number): Promise<void> {
    this.faults.enter('markAnnounced', [tenantId, month, atMs]);
    const key = `${tenantId}\n${month}`;
    const current = this.audits.get(key);
    if (current) this.audits.set(key, { ...current, announcedAtMs: current.announcedAtMs ?? atMs });
  }
}

export class FakeAuditNotifier implements AuditNotifier {
  readonly faults = new Faults<'publish'>();
  readonly messages: AuditSummaryMessage[] = [];

  async publish(message: AuditSummaryMessage): Promise<void> {
    this.faults.enter('publish', [message]);
    this.messages.push(stored(message));
  }
}
