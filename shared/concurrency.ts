/**
 * Maps `items` through `task` with at most `limit` tasks in flight, keeping the
 * order of the results. The first failure rejects, after the tasks in flight end.
 */
export async function mapWithConcurrency<Item, Result>(
  items: readonly Item[],
  limit: number,
  task: (item: Item, index: number) => Promise<Result>,
): Promise<Result[]> {
  const results = new Array<Result>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await task(items[index] as Item, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Waits for every one of `promises`, then rejects with the first failure if
 * any failed: none is left running unawaited when one fails.
 */
export async function settleAll(promises: readonly (Promise<unknown> | undefined)[]): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}
