import type { AuditSummaryMessage } from '../domain/audit/audit-summary';
import type { MonthlyAudit } from '../domain/audit/monthly-audit';
import type { SpotTraces } from '../planning/spot-market';

/** A stored audit and how far its announcement got. */
export interface StoredAudit {
  readonly audit: MonthlyAudit;
  /** When an audit run took the right to announce it (SNS summary + AuditReady). */
  readonly claimedAtMs?: number | undefined;
  /** When the announcement was out; absent until then. */
  readonly announcedAtMs?: number | undefined;
}

/** Monthly audits, one per tenant and month, written once. */
export interface AuditStore {
  get(tenantId: string, month: string): Promise<StoredAudit | undefined>;
  /** Stores the audit unless one is stored for its tenant and month; false when there was one. */
  putIfAbsent(audit: MonthlyAudit): Promise<boolean>;
  /**
   * Takes the right to announce: true for one caller per tenant and month, or for a
   * caller taking over a claim older than `staleBeforeMs` that was never announced.
   */
  claimAnnouncement(tenantId: string, month: string, atMs: number, staleBeforeMs: number): Promise<boolean>;
  markAnnounced(tenantId: string, month: string, atMs: number): Promise<void>;
}

/** Tenants that were charged anything in a month: the audit schedule's work list. */
export interface ChargedTenants {
  chargedIn(month: string): Promise<string[]>;
}

/** The V100 spot traces the planner replays against. */
export interface SpotTraceSource {
  load(): Promise<SpotTraces>;
}

export interface AuditNotifier {
  publish(message: AuditSummaryMessage): Promise<void>;
}
