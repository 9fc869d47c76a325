import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import {
  cancellationReasons,
  transactRetryingConflicts,
} from '../../../shared/adapters/dynamodb-transactions';

// DynamoDB Local does not cancel transactions for conflicts on demand, so a
// hand-written client answers with the cancellations a busy table gives.
const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

function answering(...answers: (Error | undefined)[]) {
  const sent: unknown[] = [];
  const client = {
    send: async (command: unknown) => {
      sent.push(command);
      const answer = answers.shift();
      if (answer) throw answer;
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  return { client, sent };
}

const item = {
  ConditionCheck: { TableName: 't', Key: { pk: 'a' }, ConditionExpression: 'attribute_exists(pk)' },
};

describe('transactions that lose a race', () => {
  it('are sent again after a conflict, and succeed', async () => {
    const { client, sent } = answering(cancelled('None', 'TransactionConflict'), undefined);
    await transactRetryingConflicts(client, [item, item]);
    expect(sent).toHaveLength(2);
  });

  it('are not sent again when a condition failed, even alongside a conflict', async () => {
    const { client, sent } = answering(cancelled('ConditionalCheckFailed', 'TransactionConflict'));
    const error = await transactRetryingConflicts(client, [item, item]).catch((thrown: unknown) => thrown);
    expect(cancellationReasons(error)).toEqual(['ConditionalCheckFailed', 'TransactionConflict']);
    expect(sent).toHaveLength(1);
  });

  it('give up after eight conflicts in a row', async () => {
    vi.useFakeTimers();
    try {
      const { client, sent } = answering(
        ...Array.from({ length: 9 }, () => cancelled('TransactionConflict')),
      );
      const outcome = transactRetryingConflicts(client, [item]).catch((thrown: unknown) => thrown);
      await vi.runAllTimersAsync();
      expect(await outcome).toBeInstanceOf(TransactionCanceledException);
      expect(sent).toHaveLength(8);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads no reasons from other errors', () => {
    expect(cancellationReasons(new Error('throttled'))).toEqual([]);
  });
});
