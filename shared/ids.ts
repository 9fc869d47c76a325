import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;

function timeChars(atMs: number): string {
  let time = '';
  let rest = atMs;
  for (let i = 0; i < TIME_CHARS; i += 1) {
    time = ALPHABET[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  return time;
}

/** Lease ids sort by creation time (a lowercase ULID), so listings come newest-first cheaply. */
export function newLeaseId(nowMs: number): string {
  const random = [...randomBytes(RANDOM_CHARS)].map((byte) => ALPHABET[byte % 32]).join('');
  return `lease_${timeChars(nowMs)}${random}`;
}

/**
 * The smallest id a lease created at `atMs` can have: ids of leases created in
 * [fromMs, toMs) sort between `leaseIdFloor(fromMs)` and `leaseIdFloor(toMs)`,
 * so a created-at range is a key range.
 */
export function leaseIdFloor(atMs: number): string {
  return `lease_${timeChars(Math.max(0, atMs))}${'0'.repeat(RANDOM_CHARS)}`;
}

export const LEASE_ID_PATTERN = /^lease_[0-9a-hjkmnp-tv-z]{26}$/;

/** A tenant id, as the token's `custom:tenant` claim and admin routes' `{tenantId}` carry it. */
export const TENANT_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** TENANT_ID in words, for errors that say how to fix a name. */
export const TENANT_ID_RULE = 'must be 1-64 letters, digits, "_" or "-"';
