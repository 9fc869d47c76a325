import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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
  type Update,
} from './dynamodb-admission-items';

/** A transaction takes at most 100 items. */
const MAX_TRANSACTION_ITEMS = 100;
/** Reservations a pass has made and not yet settled: one item each, its claims as JSON. */
const INTENTS = 'INTENT';
/** Claims of one intent, as JSON, stay well under DynamoDB's 400 KB item limit. */
const MAX_INTENT_BYTES = 300_000;
/** A transaction carries at most 4 MB: its intents' claims stay under it. */
const MAX_INTENTS_PER_TRANSACTION = 10;
const intentKey = (intentId: string) => ({ pk: INTENTS, sk: intentId });

/** Counters reserved for some admissions, with the claims they are for, until every lease is marked or given back. */
interface Intent {
  readonly intentId: string;
  readonly claims: readonly AdmissionClaim[];
}

/**
 * How the admission store commits a pass's admissions: reserved, then
 * marked. One transaction reserves a chunk's counters: each tenant's take
 * the chunk's sum (conditional on the quota read being the quota now and the
 * sum fitting under it), each capacity pool its units (likewise), and an
 * intent item records the chunk's claims. Conditions compare the stored use
 * with the room left, so a release in between (which only lowers use) never
 * makes a pass fail, while another pass's admission, a quota or limit change
 * does. Then the leases move from QUEUED to ADMITTED in transactions of 99,
 * each also checking that the intent is still open; a lease that left the
 * queue meanwhile (cancelled, timed out, admitted by a racing pass) is not
 * marked. Last the intent is closed, what it reserved for the leases it did
 * not mark is given back, and it is deleted, in one transaction: exactly
 * once, whoever settles it. An intent whose pass stopped midway is settled
 * the same way by a later pass (`recover`).
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
      for (const intent of intents) committed.push(...(await this.settle(intent)));
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
    const marked = new Set<string>();
    for (let i = 0; i < intent.claims.length; i += MAX_TRANSACTION_ITEMS - 1) {
      const batch = intent.claims.slice(i, i + MAX_TRANSACTION_ITEMS - 1);
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
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: this.table,
                Key: intentKey(intent.intentId),
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
            ...givenBack(this.table, lost),
          ],
        }),
      );
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      // Another settler deleted it, and gave back the same leases' reservations.
    }
    return intent.claims.filter((claim) => !lost.some((gone) => gone.leaseId === claim.leaseId));
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
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(closed)',
      },
    };
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [open, ...batch.map((claim) => this.markItem(intentId, claim))],
        }),
      );
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const failed = (error.CancellationReasons ?? []).map(
        (reason) => reason.Code === 'ConditionalCheckFailed',
      );
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
 * The claims as reservation transactions, each a list of intents: grouped by
 * tenant (in the order of each tenant's first claim), so that a tenant's
 * counters are charged once for as many of its claims as fit, then cut so
 * that a transaction's tenants, pools and intents are at most 100 items and
 * MAX_INTENTS_PER_TRANSACTION intents, and an intent's claims one item.
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
    const current = intents[intents.length - 1] as AdmissionClaim[];
    const anotherIntent = current.length > 0 && bytes + size > MAX_INTENT_BYTES;
    const items =
      tenants.size +
      (tenants.has(claim.tenantId) ? 0 : 1) +
      pools.size +
      (claim.pool && !pools.has(claim.pool.key) ? 1 : 0) +
      intents.length +
      (anotherIntent ? 1 : 0);
    const full =
      items > MAX_TRANSACTION_ITEMS || (anotherIntent && intents.length >= MAX_INTENTS_PER_TRANSACTION);
    if (full && current.length > 0) {
      chunks.push(intents);
      intents = [[]];
      bytes = 0;
      tenants = new Set();
      pools = new Set();
    } else if (anotherIntent) {
      intents.push([]);
      bytes = 0;
    }
    (intents[intents.length - 1] as AdmissionClaim[]).push(claim);
    bytes += size;
    tenants.add(claim.tenantId);
    if (claim.pool) pools.add(claim.pool.key);
  }
  if ((intents[0] as AdmissionClaim[]).length > 0) chunks.push(intents);
  return chunks;
}
