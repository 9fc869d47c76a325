import { describe, expect, it } from 'vitest';
import { leaseSessionPolicy, sessionNameOf } from '../../../shared/usecases/access-policies';
import { allows } from '../../support/iam-policy';

const LEASE = 'lease_01jdz3n5x8k2m4p6q8r0s2t4v6';
const OTHER_LEASE = 'lease_01jdz3n5x8k2m4p6q8r0s2t4zz';
const tags = (tenant: string, lease: string) => ({
  'ssm:resourceTag/gpurent:tenant': tenant,
  'ssm:resourceTag/gpurent:lease': lease,
});
const instance = (region: string, id: string) => `arn:aws:ec2:${region}:123456789012:instance/${id}`;
const policy = leaseSessionPolicy('tenant-a', LEASE, [
  { instanceId: 'i-0aaa', region: 'us-east-1' },
  { instanceId: 'i-0bbb', region: 'us-west-2' },
]);
const start = (resource: string, context?: Record<string, string>) =>
  allows(policy, { action: 'ssm:StartSession', resource, context });

describe("a lease session's policy", () => {
  it("allows a session to each of the lease's own instances, with the session documents", () => {
    expect(start(instance('us-east-1', 'i-0aaa'), tags('tenant-a', LEASE))).toBe(true);
    expect(start(instance('us-west-2', 'i-0bbb'), tags('tenant-a', LEASE))).toBe(true);
    expect(start('arn:aws:ssm:us-east-1::document/AWS-StartSSHSession')).toBe(true);
    expect(start('arn:aws:ssm:us-west-2::document/SSM-SessionManagerRunShell')).toBe(true);
  });

  it("cannot reach another tenant's instance, by id or by tags", () => {
    // Another tenant's instance: a different id, its own tags.
    expect(start(instance('us-east-1', 'i-0ccc'), tags('tenant-b', 'lease_01jdz3n5x8k2m4p6q8r0s2t4xx'))).toBe(
      false,
    );
    // Even an instance id of this lease fails once the instance carries another tenant's or lease's tags.
    expect(start(instance('us-east-1', 'i-0aaa'), tags('tenant-b', LEASE))).toBe(false);
    expect(start(instance('us-east-1', 'i-0aaa'), tags('tenant-a', OTHER_LEASE))).toBe(false);
    // The same id in another region is another instance.
    expect(start(instance('eu-west-1', 'i-0aaa'), tags('tenant-a', LEASE))).toBe(false);
    // Nothing but sessions: no other SSM action, no other document.
    expect(allows(policy, { action: 'ssm:SendCommand', resource: instance('us-east-1', 'i-0aaa') })).toBe(
      false,
    );
    expect(start('arn:aws:ssm:us-east-1::document/AWS-RunShellScript')).toBe(false);
  });

  it('resumes and ends only the sessions its own role session opened', () => {
    const own = `arn:aws:ssm:us-east-1:123456789012:session/${sessionNameOf(LEASE)}-0a1b2c3d4e`;
    const other = `arn:aws:ssm:us-east-1:123456789012:session/${sessionNameOf(OTHER_LEASE)}-0a1b2c3d4e`;
    expect(allows(policy, { action: 'ssm:TerminateSession', resource: own })).toBe(true);
    expect(allows(policy, { action: 'ssm:ResumeSession', resource: own })).toBe(true);
    expect(allows(policy, { action: 'ssm:TerminateSession', resource: other })).toBe(false);
  });

  it('names a role session STS accepts', () => {
    expect(sessionNameOf(LEASE)).toMatch(/^[\w+=,.@-]{2,64}$/);
  });
});
