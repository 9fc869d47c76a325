import { ClientError } from '../client-error';
/** A page cursor that is not one this API issued (tampered, or from another list). */
export class InvalidCursorError extends ClientError {
  constructor() {
    super(400, 'INVALID_CURSOR', 'cursor must be a nextCursor value returned by this API');
    this.name = 'InvalidCursorError';
  }
}

/** The opaque cursor of a query page: only the sort key of `LastEvaluatedKey`. */
export function encodeCursor(lastEvaluatedKey: Record<string, unknown> | undefined): string | undefined {
  return lastEvaluatedKey
    ? Buffer.from(JSON.stringify({ sk: lastEvaluatedKey.sk }), 'utf8').toString('base64url')
    : undefined;
}

/**
 * The `ExclusiveStartKey` a cursor stands for. The partition is always the
 * caller's own (`pk`), never the cursor's, and the sort key must be one of the
 * list's (`skPrefix`), so a cursor cannot reach into another tenant or list.
 */
export function decodeCursor(
  cursor: string | undefined,
  pk: string,
  skPrefix: string,
): Record<string, unknown> | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const sk = (parsed as { sk?: unknown }).sk;
    if (typeof sk === 'string' && sk.startsWith(skPrefix)) return { pk, sk };
  } catch {
    // falls through to the typed error
  }
  throw new InvalidCursorError();
}
