import { describe, expect, it } from 'vitest';
import {
  checkpointCredentialLines,
  checkpointRefreshDue,
  checkpointSessionPolicy,
} from '../../../shared/domain/tasks/checkpoint-access';
import { checkpointPrefix } from '../../../shared/domain/tasks/log-streams';
import { allows } from '../../support/iam-policy';

const BUCKET = 'gpurent-checkpoints';
const LEASE_A = 'lease_01jdz3n5x8k2m4p6q8r0s2t4v6';
const LEASE_B = 'lease_01jdz3n5x8k2m4p6q8r0s2t4zz';
const policy = checkpointSessionPolicy(BUCKET, 'tenant-a', LEASE_A);
const object = (tenant: string, lease: string, file: string) =>
  `arn:aws:s3:::${BUCKET}/${checkpointPrefix(tenant, lease)}${file}`;
const list = (prefix: string) =>
  allows(policy, {
    action: 's3:ListBucket',
    resource: `arn:aws:s3:::${BUCKET}`,
    context: { 's3:prefix': prefix },
  });

describe("a lease's checkpoint credentials", () => {
  it("read, write, delete and list the lease's own prefix", () => {
    for (const action of ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload']) {
      expect(
        allows(policy, { action, resource: object('tenant-a', LEASE_A, 'step-10/model.pt') }),
        action,
      ).toBe(true);
    }
    expect(list(checkpointPrefix('tenant-a', LEASE_A))).toBe(true);
    expect(list(`${checkpointPrefix('tenant-a', LEASE_A)}step-10/`)).toBe(true);
  });

  it("reach nothing of lease B's prefix, another tenant's, or the bucket at large", () => {
    for (const action of ['s3:GetObject', 's3:PutObject', 's3:DeleteObject']) {
      expect(allows(policy, { action, resource: object('tenant-a', LEASE_B, 'step') }), action).toBe(false);
      expect(allows(policy, { action, resource: object('tenant-b', LEASE_A, 'step') }), action).toBe(false);
    }
    // A lease id that merely starts with A's is another lease: the prefix ends with its slash.
    expect(
      allows(policy, { action: 's3:GetObject', resource: object('tenant-a', `${LEASE_A}x`, 'step') }),
    ).toBe(false);
    expect(list(checkpointPrefix('tenant-a', LEASE_B))).toBe(false);
    expect(list('tenant-a/')).toBe(false);
    expect(list('')).toBe(false);
    // Listing without a prefix (the whole bucket) carries no s3:prefix key: refused.
    expect(allows(policy, { action: 's3:ListBucket', resource: `arn:aws:s3:::${BUCKET}` })).toBe(false);
    expect(
      allows(policy, {
        action: 's3:GetObject',
        resource: `arn:aws:s3:::other-bucket/${checkpointPrefix('tenant-a', LEASE_A)}x`,
      }),
    ).toBe(false);
    expect(allows(policy, { action: 's3:PutBucketPolicy', resource: `arn:aws:s3:::${BUCKET}` })).toBe(false);
  });

  it('are written for credential_process with their expiry, swapped in whole, behind a profile', () => {
    const lines = checkpointCredentialLines(LEASE_A, {
      accessKeyId: 'ASIAEXAMPLE',
      secretAccessKey: "se'cret",
      sessionToken: 'token',
      expiresAtMs: Date.parse('2026-12-01T18:00:00Z'),
    });
    const script = lines.join('\n');
    expect(script).toContain(`/run/gpurent/${LEASE_A}/credentials.json.new`);
    expect(script).toContain(
      `mv '/run/gpurent/${LEASE_A}/credentials.json.new' '/run/gpurent/${LEASE_A}/credentials.json'`,
    );
    expect(script).toContain('"Version":1');
    expect(script).toContain('"Expiration":"2026-12-01T18:00:00.000Z"');
    // The quote in the secret is escaped for the shell, not a way out of the string.
    expect(script).toContain(`"SecretAccessKey":"se'"'"'cret"`);
    expect(script).toContain(`credential_process = cat /run/gpurent/${LEASE_A}/credentials.json`);
  });
});

describe('when checkpoint credentials are refreshed', () => {
  const MINUTE = 60_000;
  it('in minutes 30-45 of each hour of the attempt: every credential is replaced 15-30 minutes before it expires', () => {
    const due = (minutes: number) => checkpointRefreshDue(0, minutes * MINUTE);
    expect([0, 10, 29, 45, 59, 60, 89].map(due)).toEqual([false, false, false, false, false, false, false]);
    expect([30, 35, 44, 90, 104, 150].map(due)).toEqual([true, true, true, true, true, true]);
  });
});
