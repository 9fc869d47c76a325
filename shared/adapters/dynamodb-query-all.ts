import {
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
  type ScanCommandInput,
} from '@aws-sdk/lib-dynamodb';

/** Every item a query matches, following `LastEvaluatedKey` page by page. */
export async function queryAll(
  client: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'ExclusiveStartKey'>,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Every item a scan matches, read as `segments` parallel segments, each page by page. */
export async function scanAll(
  client: DynamoDBDocumentClient,
  input: Omit<ScanCommandInput, 'ExclusiveStartKey' | 'Segment' | 'TotalSegments'>,
  segments: number,
): Promise<Record<string, unknown>[]> {
  const pages = await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      const items: Record<string, unknown>[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new ScanCommand({
            ...input,
            Segment: segment,
            TotalSegments: segments,
            ExclusiveStartKey: startKey,
          }),
        );
        items.push(...(page.Items ?? []));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return items;
    }),
  );
  return pages.flat();
}
