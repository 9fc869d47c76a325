import { describe, expect, it } from 'vitest';
import {
  attributeValueBytes,
  DYNAMODB_ITEM_LIMIT_BYTES,
  dynamoItemBytes,
  MAX_NEW_LEASE_ITEM_BYTES,
} from '../../../shared/domain/item-size';

describe('an item size as DynamoDB counts it', () => {
  it('counts attribute names and string values in UTF-8 bytes', () => {
    expect(dynamoItemBytes({ pk: 'TENANT#a', name: 'é' })).toBe(2 + 8 + 4 + 2);
  });

  it('counts a number as one byte per two significant digits plus one', () => {
    expect(attributeValueBytes(7)).toBe(2);
    expect(attributeValueBytes(1_700_000_000_000)).toBe(2);
    expect(attributeValueBytes(1_712_345_678_901)).toBe(8);
    expect(attributeValueBytes(123.45)).toBe(4);
    expect(attributeValueBytes(-0.5)).toBe(2);
  });

  it('counts lists and maps with 3 bytes of their own and 1 per element', () => {
    expect(attributeValueBytes(['ab', 'c'])).toBe(3 + 1 + 2 + 1 + 1);
    expect(attributeValueBytes({ A: 'xy' })).toBe(3 + 1 + 1 + 2);
    expect(attributeValueBytes([])).toBe(3);
  });

  it('leaves out undefined values, as the document client removes them', () => {
    expect(dynamoItemBytes({ a: 'x', b: undefined })).toBe(2);
    expect(attributeValueBytes({ a: undefined })).toBe(3);
  });

  it('counts booleans and null as one byte', () => {
    expect(dynamoItemBytes({ t: true, n: null })).toBe(4);
  });

  it('sees a task of 64 env values of 4 KB and a 64 KB command past what a new lease may weigh', () => {
    const env = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`VAR_${i}`, 'x'.repeat(4096)]));
    const secrets = Object.fromEntries(
      Array.from({ length: 64 }, (_, i) => [`S_${i}`, `/gpurent/t/${'y'.repeat(2000)}`]),
    );
    const bytes = dynamoItemBytes({ task: { spec: { command: 'z'.repeat(65_536), env, secrets } } });
    expect(bytes).toBeGreaterThan(MAX_NEW_LEASE_ITEM_BYTES);
    expect(MAX_NEW_LEASE_ITEM_BYTES).toBeLessThan(DYNAMODB_ITEM_LIMIT_BYTES);
  });
});
