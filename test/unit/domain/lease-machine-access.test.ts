import { describe, expect, it } from 'vitest';
import {
  checkpointReadPolicy,
  credentialsInScript,
  leaseMachineCredentialLines,
  leaseMachinePolicy,
  leaseMachineRefreshDue,
  leaseMetricNamespace,
} from '../../../shared/domain/tasks/lease-machine-access';
import { checkpointPrefix } from '../../../shared/domain/tasks/log-streams';
import { allows } from '../../support/iam-policy';

const BUCKET = 'gpurent-checkpoints';
const LEASE_A = 'lease_01jdz3n5x8k2m4p6q8r0s2t4v6';
const LEASE_B = 'lease_01jdz3n5x8k2m4p6q8r0s2t4zz';
const policy = leaseMachinePolicy({
  tenantId: 'tenant-a',
  leaseId: LEASE_A,
  checkpointBucket: BUCKET,
  taskOutputLogGroup: 'gpurent-task-output',
});
const object = (tenant: string, lease: string, file: string) =>
  `arn:aws:s3:::${BUCKET}/${checkpointPrefix(tenant, lease)}${file}`;
const list = (prefix: string) =>
  allows(policy, {
    action: 's3:ListBucket',
    resource: `arn:aws:s3:::${BUCKET}`,
    context: { 's3:prefix': prefix },
  });

describe("a lease's machine credentials", () => {
  it("for reading its progress, only read and list the lease's own prefix", () => {
    const read = checkpointReadPolicy(BUCKET, 'tenant-a', LEASE_A);
    const file = object('tenant-a', LEASE_A, 'gpurent-progress');
    expect(allows(read, { action: 's3:GetObject', resource: file })).toBe(true);
    for (const action of ['s3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload']) {
      expect(allows(read, { action, resource: file }), action).toBe(false);
    }
    expect(
      allows(read, { action: 's3:GetObject', resource: object('tenant-a', LEASE_B, 'gpurent-progress') }),
    ).toBe(false);
    expect(
      allows(read, {
        action: 's3:ListBucket',
        resource: `arn:aws:s3:::${BUCKET}`,
        context: { 's3:prefix': checkpointPrefix('tenant-a', LEASE_A) },
      }),
    ).toBe(true);
  });

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

  it("reach the tenant's parameters and secrets, the lease's streams and namespace, and no other's", () => {
    const parameter = (tenant: string) =>
      `arn:aws:ssm:us-east-1:123456789012:parameter/gpurent/${tenant}/HF_TOKEN`;
    expect(allows(policy, { action: 'ssm:GetParameter', resource: parameter('tenant-a') })).toBe(true);
    expect(allows(policy, { action: 'ssm:GetParameter', resource: parameter('tenant-b') })).toBe(false);
    // A tenant whose id starts with A's is another tenant: the path ends with its slash.
    expect(allows(policy, { action: 'ssm:GetParameter', resource: parameter('tenant-ab') })).toBe(false);
    const secret = (tenant: string) =>
      `arn:aws:secretsmanager:us-east-1:123456789012:secret:gpurent/${tenant}/db-AbCdEf`;
    expect(allows(policy, { action: 'secretsmanager:GetSecretValue', resource: secret('tenant-a') })).toBe(
      true,
    );
    expect(allows(policy, { action: 'secretsmanager:GetSecretValue', resource: secret('tenant-b') })).toBe(
      false,
    );
    const stream = (lease: string) =>
      `arn:aws:logs:us-east-1:123456789012:log-group:gpurent-task-output:log-stream:${lease}/attempt-1/stdout`;
    expect(allows(policy, { action: 'logs:PutLogEvents', resource: stream(LEASE_A) })).toBe(true);
    expect(allows(policy, { action: 'logs:PutLogEvents', resource: stream(LEASE_B) })).toBe(false);
    const put = (namespace: string) =>
      allows(policy, {
        action: 'cloudwatch:PutMetricData',
        resource: '*',
        context: { 'cloudwatch:namespace': namespace },
      });
    expect(put(leaseMetricNamespace('tenant-a', LEASE_A))).toBe(true);
    expect(put(leaseMetricNamespace('tenant-a', LEASE_B))).toBe(false);
    expect(put('CWAgent')).toBe(false);
  });

  it('are written for credential_process with their expiry, swapped in whole, behind a profile', () => {
    const credentials = {
      accessKeyId: 'ASIAEXAMPLE',
      secretAccessKey: "se'cret",
      sessionToken: 'token',
      expiresAtMs: Date.parse('2026-12-01T18:00:00Z'),
    };
    const lines = leaseMachineCredentialLines(LEASE_A, credentials);
    // What the local agent reads back out of a command is exactly what was written.
    expect(credentialsInScript(['set -eu', ...lines])).toEqual(credentials);
    expect(credentialsInScript(['set -eu', 'echo hello'])).toBeUndefined();
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

describe("when a machine's lease credentials are (re)sent", () => {
  const MINUTE = 60_000;
  it("in the machine's first 15 minutes, then minutes 30-45 of each hour: never more than 45 minutes apart", () => {
    const due = (minutes: number) => leaseMachineRefreshDue(0, minutes * MINUTE);
    expect([-1, 15, 29, 45, 59, 60, 89].map(due)).toEqual([false, false, false, false, false, false, false]);
    expect([0, 10, 14, 30, 35, 44, 90, 104, 150].map(due)).toEqual(Array(9).fill(true));
  });
});
