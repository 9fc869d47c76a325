import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** A document client for DynamoDB Local that counts the requests it sends and the items returned to it. */
export function countingClient(endpoint: string) {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  let requests = 0;
  let items = 0;
  client.middlewareStack.add(
    (next) => async (args) => {
      requests += 1;
      const result = await next(args);
      items += ((result.output as { Items?: unknown[] } | undefined)?.Items ?? []).length;
      return result;
    },
    { step: 'initialize', name: 'countRequests' },
  );
  const documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  const reset = () => {
    requests = 0;
    items = 0;
  };
  return { documents, requests: () => requests, items: () => items, reset };
}

/** Writes items 25 a call, 16 calls at once, retrying what DynamoDB leaves unprocessed. */
export async function writeAll(
  documents: DynamoDBDocumentClient,
  table: string,
  items: Record<string, unknown>[],
) {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  for (let i = 0; i < chunks.length; i += 16) {
    await Promise.all(
      chunks.slice(i, i + 16).map(async (chunk) => {
        let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const result = await documents.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
          pending = (result.UnprocessedItems?.[table] ?? []) as typeof pending;
        }
      }),
    );
  }
}
