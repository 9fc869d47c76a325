/**
 * DynamoDB's item size limit: 400 KB, counted over attribute names and values.
 * A write past it is a ValidationException, which would reach the caller as a 500.
 */
export const DYNAMODB_ITEM_LIMIT_BYTES = 400 * 1024;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * A number's size as DynamoDB counts it: about one byte per two significant
 * digits, plus one (at most 21 bytes). Leading and trailing zeros are not stored.
 */
function numberBytes(value: number | bigint): number {
  const digits = String(value)
    .replace(/^-/, '')
    .replace(/e.*$/i, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.min(21, Math.ceil(Math.max(1, digits.length) / 2) + 1);
}

/**
 * The size DynamoDB counts for one attribute value, as the document client
 * marshals it (undefined values are removed). Lists and maps cost 3 bytes plus
 * 1 per element on top of their elements (a map's element also counts its name).
 */
export function attributeValueBytes(value: unknown): number {
  if (value === null || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return utf8(value);
  if (typeof value === 'number' || typeof value === 'bigint') return numberBytes(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) {
    return [...value].reduce<number>((sum, element) => sum + attributeValueBytes(element), 0);
  }
  if (Array.isArray(value)) {
    const present = value.filter((element) => element !== undefined);
    return 3 + present.reduce<number>((sum, element) => sum + 1 + attributeValueBytes(element), 0);
  }
  if (typeof value === 'object') return 3 + attributesBytes(value as Record<string, unknown>, 1);
  return 0;
}

function attributesBytes(attributes: Record<string, unknown>, perElement: number): number {
  let total = 0;
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    total += perElement + utf8(name) + attributeValueBytes(value);
  }
  return total;
}

/**
 * An item's size as DynamoDB counts it against the 400 KB limit: the UTF-8
 * length of each attribute name plus the size of its value. Close enough
 * (within a few bytes per number) to refuse an item before DynamoDB would.
 */
export function dynamoItemBytes(item: Record<string, unknown>): number {
  return attributesBytes(item, 0);
}

/**
 * What a lease item may weigh when it is created: DynamoDB's limit less room
 * for what the item gathers as it runs (queue marks, task attempts and state),
 * so that no later update of a lease accepted today fails on size.
 */
export const LEASE_ITEM_RESERVE_BYTES = 32 * 1024;
export const MAX_NEW_LEASE_ITEM_BYTES = DYNAMODB_ITEM_LIMIT_BYTES - LEASE_ITEM_RESERVE_BYTES;
