import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mapWithConcurrency } from '../concurrency';
import { type AdmissionClaim, type CapacityPool, poolKey } from '../domain/admission/claims';
import type { Quota } from '../domain/admission/quota';
import type { AdmissionSnapshot, AdmissionStatus, AdmitOutcome } from '../ports/admission-store';
import {
  admissionLeaseItem,
  admissionLeaseKey,
  CAPACITY,
  encoded,
  givenBack,
  leaseOf,
  partitionItems,
  sumsOf,
  tenantAdmission,
} from './dynamodb-admission-items';
import { cancellationReasons, transactRetryingConflicts, type Update } from './dynamodb-transactions';

/** A transaction takes at most 100 items. */
const MAX_TRANSACTION_ITEMS = 100;
/** Leases one mark transaction moves: all its items but the one for the intent (checked or deleted). */
const MARK_BATCH = MAX_TRANSACTION_ITEMS - 1;
/** Reservations a pass has made and not yet settled: one item each, its claims as JSON. */
const INTENTS = 'INTENT';
/** A transaction carries at most 4 MB: the intents' claims of one reservation stay well under it. */
const MAX_RESERVATION_BYTES = 3_000_000;
/**
 * Intents of one reservation settled at once. Each intent's marks touch only
 * its own item and its leases, so concurrent settlers never write one item;
 * DynamoDB applies their transactions side by side. DynamoDB Local applies
 * them nearly one at a time: four in flight save it about 8% of the pass
 * (BENCHMARKS.md, "admission", session 17).
 */
const SETTLE_CONCURRENCY = 4;
const intentKey = (intentId: string) => ({ pk: INTENTS, sk: intentId });
/** An intent no settler has closed: leases may still be marked under it. */
const INTENT_OPEN = 'attribute_exists(pk) AND attribute_not_exists(closed)';

/** Counters reserved for some admissions, with the claims they are for, until every lease is marked or given back. */
interface Intent {
  readonly intentId: string;
  readonly claims: readonly AdmissionClaim[];
}

/**
 * How the admission store commits a pass's admissions: reserved, then
 * marked. One transaction reserves a chunk's counters: each tenant's take
 * the chunk's sum (conditional on the quota read being the quota now and the
 * sum fitting under it), each capacity pool its units (likewise), and one
 * intent item per 99 of the chunk's claims records them. Conditions compare
 * the stored use with the room left, so a release in between (which only
 * lowers use) never makes a pass fail, while another pass's admission, a
 * quota or limit change does. Then the intents are settled, a few at once.
 * Commonly one transaction moves all of an intent's leases from QUEUED to
 * ADMITTED and deletes the intent, on condition that it is still open: all
 * it reserved is held. When a lease left the queue meanwhile (cancelled,
 * timed out, admitted by a racing pass) that transaction fails whole, and
 * the rest are marked in one that only checks the intent open; then the
 * intent is closed, so that no settler marks a lease any more, and what it
 * reserved for the leases nobody marked is given back as it is deleted, in
 * one transaction: exactly once, whoever settles it. An intent whose pass
 * stopped midway is settled the same way by a later pass (`recover`).
 *
 * Why not one transaction of leases and counters: DynamoDB Local spends
 * about 5 ms on each conditional counter update in a transaction and 2-3 ms
 * on a lease's, so counters charged once per pass, not once per chunk of
 * 100 items, are most of the gain (BENCHMARKS.md, "admission").
 */
export class DynamoDbAdmissionCommit {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async admit(
    claims: readonly AdmissionClaim[],
    snapshot: AdmissionSnapshot,
    defaultQuota: Quota,
  ): Promise<AdmitOutcome> {
    const committed: AdmissionClaim[] = [];
    for (const chunk of reservationsOf(claims)) {
      const intents = chunk.map((part): Intent => ({ intentId: randomUUID(), claims: part }));
      try {
        await this.client.send(
          new TransactWriteCommand({ TransactItems: this.reservation(intents, snapshot, defaultQuota) }),
        );
      } catch (error) {
        if (error instanceof TransactionCanceledException) return { committed, conflicted: true };
        throw error;
      }
      const settled = await mapWithConcurrency(intents, SETTLE_CONCURRENCY, (intent) => this.settle(intent));
      committed.push(...settled.flat());
    }
    return { committed, conflicted: false };
  }

  async recover(reservedBeforeMs: number): Promise<AdmissionClaim[]> {
    const stale = (await partitionItems(this.client, this.table, INTENTS)).filter(
      (item) => (item.atMs as number) < reservedBeforeMs,
    );
    const admitted: AdmissionClaim[] = [];
    for (const item of stale) {
      const claims = JSON.parse(item.claims as string) as AdmissionClaim[];
      admitted.push(...(await this.settle({ intentId: item.sk as string, claims })));
    }
    return admitted;
  }

  /**
   * Marks the intent's leases, closes it, and gives back what it reserved for
   * the leases no settler marked. Returns the claims of the leases it admitted.
   */
  private async settle(intent: Intent): Promise<AdmissionClaim[]> {
    if (await this.markAllAndDelete(intent)) return [...intent.claims];
    const marked = new Set<string>();
    // Intents written before settling went concurrent may hold more than one batch.
    for (let i = 0; i < intent.claims.length; i += MARK_BATCH) {
      const batch = intent.claims.slice(i, i + MARK_BATCH);
      if ((await this.mark(intent.intentId, batch, marked)) === 'closed') break;
    }
    // Closed, no settler marks a lease any more: who holds a reservation is settled.
    await this.closeIntent(intent.intentId);
    const unsure = intent.claims.filter((claim) => !marked.has(claim.leaseId));
    const items = await Promise.all(
      unsure.map((claim) => admissionLeaseItem(this.client, this.table, claim.leaseId)),
    );
    const markedElsewhere = new Set(
      items.flatMap((item) =>
        item && (item.admittedBy as Set<string> | undefined)?.has(intent.intentId)
          ? [leaseOf(item).leaseId]
          : [],
      ),
    );
    const lost = unsure.filter((claim) => !markedElsewhere.has(claim.leaseId));
    await this.deleteIntent(intent.intentId, lost);
    return intent.claims.filter((claim) => !lost.some((gone) => gone.leaseId === claim.leaseId));
  }

  /**
   * Deletes the intent and gives back what it reserved for the `lost` claims,
   * in one transaction: exactly once, by whichever settler gets there first.
   */
  private async deleteIntent(intentId: string, lost: readonly AdmissionClaim[]): Promise<void> {
    try {
      await transactRetryingConflicts(this.client, [
        {
          Delete: {
            TableName: this.table,
            Key: intentKey(intentId),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        ...givenBack(this.table, lost),
      ]);
    } catch (error) {
      if (cancellationReasons(error)[0] !== 'ConditionalCheckFailed') throw error;
      // Another settler deleted it, and gave back the same leases' reservations.
    }
  }

  /**
   * The common case in one transaction: every lease of a one-batch intent
   * still queued, all marked as the open intent is deleted; what it reserved
   * is then all held. False, with nothing written, when a lease left the
   * queue or another settler got to the intent first: the slow path sorts out
   * which reservations are held.
   */
  private async markAllAndDelete(intent: Intent): Promise<boolean> {
    if (intent.claims.length > MARK_BATCH) return false;
    try {
      await transactRetryingConflicts(this.client, [
        {
          Delete: {
            TableName: this.table,
            Key: intentKey(intent.intentId),
            ConditionExpression: INTENT_OPEN,
          },
        },
        ...intent.claims.map((claim) => this.markItem(intent.intentId, claim)),
      ]);
      return true;
    } catch (error) {
      if (cancellationReasons(error).includes('ConditionalCheckFailed')) return false;
      throw error;
    }
  }

  /**
   * QUEUED → ADMITTED for a batch, on condition that the intent is open; a
   * lease that left the queue is left out and the rest tried again.
   */
  private async mark(
    intentId: string,
    batch: readonly AdmissionClaim[],
    marked: Set<string>,
  ): Promise<'closed' | 'done'> {
    const open: Update = {
      ConditionCheck: {
        TableName: this.table,
        Key: intentKey(intentId),
        ConditionExpression: INTENT_OPEN,
      },
    };
    try {
      await transactRetryingConflicts(this.client, [
        open,
        ...batch.map((claim) => this.markItem(intentId, claim)),
      ]);
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const failed = cancellationReasons(error).map((code) => code === 'ConditionalCheckFailed');
      if (failed[0]) return 'closed';
      const rest = batch.filter((_, i) => !failed[i + 1]);
      if (rest.length === batch.length) throw error;
      return rest.length === 0 ? 'done' : this.mark(intentId, rest, marked);
    }
    for (const claim of batch) marked.add(claim.leaseId);
    return 'done';
  }

  private markItem(intentId: string, claim: AdmissionClaim): Update {
    return {
      Update: {
        TableName: this.table,
        Key: admissionLeaseKey(claim.leaseId),
        // `admittedBy` stays through release and requeue: the intent's settlers know it marked this lease.
        UpdateExpression:
          'SET #status = :admitted, claim = :claim, queued = :admitted ADD admittedBy :intents',
        ConditionExpression: '#status = :queued AND NOT contains(admittedBy, :intentId)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':admitted': 'ADMITTED' satisfies AdmissionStatus,
          ':queued': 'QUEUED' satisfies AdmissionStatus,
          ':claim': encoded(claim),
          ':intents': new Set([intentId]),
          ':intentId': intentId,
        },
      },
    };
  }

  private async closeIntent(intentId: string): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: intentKey(intentId),
          UpdateExpression: 'SET closed = :true',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':true': true },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // Settled already by another pass.
    }
  }

  /** The chunk's counters, conditional on fitting, and its intents, in one transaction. */
  private reservation(
    intents: readonly Intent[],
    snapshot: AdmissionSnapshot,
    defaultQuota: Quota,
  ): Update[] {
    const { byTenant, byPool } = sumsOf(intents.flatMap((intent) => intent.claims));
    const pools = new Map(snapshot.pools.map((pool) => [poolKey(pool), pool]));
    return [
      ...intents.map(
        (intent): Update => ({
          Put: {
            TableName: this.table,
            Item: {
              ...intentKey(intent.intentId),
              // The pass's instant, which its claims carry: `recover` settles intents older than a pass lasts.
              atMs: Math.max(...intent.claims.map((claim) => claim.admittedAtMs ?? 0)),
              claims: JSON.stringify(intent.claims),
            },
          },
        }),
      ),
      ...[...byTenant].map(([tenantId, add]) =>
        tenantAdmission(this.table, tenantId, add, snapshot, defaultQuota),
      ),
      ...[...byPool].map(([key, units]) => {
        const pool = pools.get(key) as CapacityPool;
        return {
          Update: {
            TableName: this.table,
            Key: { pk: CAPACITY, sk: key },
            UpdateExpression: 'SET used = used + :units',
            ConditionExpression: 'limitUnits = :limit AND used <= :room',
            ExpressionAttributeValues: { ':units': units, ':limit': pool.limit, ':room': pool.limit - units },
          },
        };
      }),
    ];
  }
}

/**
 * The claims as reservation transactions, each a list of intents of at most
 * one mark batch: grouped by tenant (in the order of each tenant's first
 * claim), so that a tenant's counters are charged once for as many of its
 * claims as fit, then cut so that a transaction's tenants, pools and intents
 * are at most 100 items and its intents' claims MAX_RESERVATION_BYTES.
 */
function reservationsOf(claims: readonly AdmissionClaim[]): AdmissionClaim[][][] {
  const byTenant = new Map<string, AdmissionClaim[]>();
  for (const claim of claims) byTenant.set(claim.tenantId, [...(byTenant.get(claim.tenantId) ?? []), claim]);
  const chunks: AdmissionClaim[][][] = [];
  let intents: AdmissionClaim[][] = [[]];
  let bytes = 0;
  let tenants = new Set<string>();
  let pools = new Set<string>();
  for (const claim of [...byTenant.values()].flat()) {
    const size = JSON.stringify(claim).length + 1;
    const anotherIntent = (intents[intents.length - 1] as AdmissionClaim[]).length >= MARK_BATCH;
    const items =
      tenants.size +
      (tenants.has(claim.tenantId) ? 0 : 1) +
      pools.size +
      (claim.pool && !pools.has(claim.pool.key) ? 1 : 0) +
      intents.length +
      (anotherIntent ? 1 : 0);
    if (bytes > 0 && (items > MAX_TRANSACTION_ITEMS || bytes + size > MAX_RESERVATION_BYTES)) {
      chunks.push(intents);
      intents = [[]];
      bytes = 0;
      tenants = new Set();
      pools = new Set();
    } else if (anotherIntent) {
      intents.push([]);
    }
    (intents[intents.length - 1] as AdmissionClaim[]).push(claim);
    bytes += size;
    tenants.add(claim.tenantId);
    if (claim.pool) pools.add(claim.pool.key);
  }
  if ((intents[0] as AdmissionClaim[]).length > 0) chunks.push(intents);
  return chunks;
}
