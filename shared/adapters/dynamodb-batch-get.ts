import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mapWithConcurrency } from '../concurrency';

/** BatchGetItem reads at most 100 keys a call. */
const BATCH_GET_LIMIT = 100;
/** Calls in flight at once. */
const CONCURRENCY = 16;
/** Rounds of UnprocessedKeys before giving up (DynamoDB returns them under throttling). */
const MAX_UNPROCESSED_ROUNDS = 8;

export class UnprocessedKeysError extends Error {
  constructor(
    readonly tableName: string,
    readonly remaining: number,
  ) {
    super(`DynamoDB left ${remaining} key(s) of ${tableName} unread after ${MAX_UNPROCESSED_ROUNDS} rounds`);
    this.name = 'UnprocessedKeysError';
  }
}

export interface BatchGetOptions {
  readonly consistentRead?: boolean;
  readonly projection?: string;
}

/**
 * Reads items by key, 100 keys a call, a few calls at once, retrying the keys
 * DynamoDB hands back unprocessed with exponential backoff. Missing items are
 * simply absent from the result.
 */
export async function batchGetAll(
  client: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Record<string, unknown>[],
  options: BatchGetOptions = {},
): Promise<Record<string, unknown>[]> {
  const chunks: Record<string, unknown>[][] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_LIMIT) {
    chunks.push(keys.slice(start, start + BATCH_GET_LIMIT));
  }
  const found = await mapWithConcurrency(chunks, CONCURRENCY, async (chunk) => {
    const items: Record<string, unknown>[] = [];
    let pending = chunk;
    for (let round = 0; round < MAX_UNPROCESSED_ROUNDS && pending.length > 0; round += 1) {
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 2 ** round * 25));
      const result = await client.send(
        new BatchGetCommand({
          RequestItems: {
            [tableName]: {
              Keys: pending,
              ConsistentRead: options.consistentRead,
              ProjectionExpression: options.projection,
            },
          },
        }),
      );
      items.push(...(result.Responses?.[tableName] ?? []));
      pending = result.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
    if (pending.length > 0) throw new UnprocessedKeysError(tableName, pending.length);
    return items;
  });
  return found.flat();
}
