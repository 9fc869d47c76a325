import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';

/** One item of a TransactWriteItems call. */
export type Update = NonNullable<
  ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']
>[number];

/** Tries of a transaction that lost a race on a shared item before the conflict is thrown. */
const CONFLICT_ATTEMPTS = 8;

/** The code of each item's cancellation reason, in item order; empty when `error` is no cancelled transaction. */
export function cancellationReasons(error: unknown): string[] {
  if (!(error instanceof TransactionCanceledException)) return [];
  return (error.CancellationReasons ?? []).map((reason) => reason.Code ?? '');
}

/**
 * Writes the items in one transaction. A transaction cancelled only because
 * another was writing one of its items at the same time (`TransactionConflict`:
 * a counter shared by concurrent admissions, releases or bills) is sent again
 * after a jittered backoff; any other cancellation, a failed condition among
 * them, is thrown for the caller to read.
 */
export async function transactRetryingConflicts(
  client: DynamoDBDocumentClient,
  items: readonly Update[],
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.send(new TransactWriteCommand({ TransactItems: [...items] }));
      return;
    } catch (error) {
      const reasons = cancellationReasons(error);
      const lostARace =
        reasons.includes('TransactionConflict') && !reasons.includes('ConditionalCheckFailed');
      if (!lostARace || attempt >= CONFLICT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** attempt * 20));
    }
  }
}
