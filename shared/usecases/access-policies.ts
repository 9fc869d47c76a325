import type { PolicyDocument } from '../domain/iam-policy';
import { LEASE_TAG, TENANT_TAG } from '../ports/compute';

// IAM session policies the control plane hands out with short-lived
// credentials. A session policy can only narrow the role it is passed with:
// the credentials allow what both the role's policy and this document allow,
// so the role carries the broad fleet-wide rule and each session one lease.

/** The Session Manager documents a session may use: the default shell and SSH over SSM. */
export const SESSION_DOCUMENTS = ['SSM-SessionManagerRunShell', 'AWS-StartSSHSession'] as const;

/** At most an hour, as the issue asks; STS refuses less than 15 minutes. */
export const SESSION_DURATION_SECONDS = 3_600;

/** A role session name STS accepts (2-64 of `[\w+=,.@-]`), and the prefix of the SSM session ids it opens. */
export const sessionNameOf = (leaseId: string) => `gpurent-${leaseId}`.slice(0, 64);

export interface LeaseInstanceRef {
  readonly instanceId: string;
  readonly region: string;
}

/**
 * Session Manager to the lease's own instances and nothing else: StartSession
 * on exactly their ARNs (and only while they still carry the lease's and the
 * tenant's tags), with the two session documents; resuming and ending only
 * the sessions this credential opened (SSM names them `<role session name>-<id>`).
 * The account is `*` in the instance ARNs: the credentials belong to the
 * session role's account and reach no other.
 */
export function leaseSessionPolicy(
  tenantId: string,
  leaseId: string,
  instances: readonly LeaseInstanceRef[],
): PolicyDocument {
  const regions = [...new Set(instances.map((instance) => instance.region))].sort();
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'StartSessionOnTheLeaseInstances',
        Effect: 'Allow',
        Action: ['ssm:StartSession'],
        Resource: instances.map(
          (instance) => `arn:aws:ec2:${instance.region}:*:instance/${instance.instanceId}`,
        ),
        Condition: {
          StringEquals: {
            [`ssm:resourceTag/${LEASE_TAG}`]: leaseId,
            [`ssm:resourceTag/${TENANT_TAG}`]: tenantId,
          },
        },
      },
      {
        Sid: 'WithTheSessionDocuments',
        Effect: 'Allow',
        Action: ['ssm:StartSession'],
        Resource: regions.flatMap((region) =>
          SESSION_DOCUMENTS.map((document) => `arn:aws:ssm:${region}::document/${document}`),
        ),
      },
      {
        Sid: 'OnlyItsOwnSessions',
        Effect: 'Allow',
        Action: ['ssm:ResumeSession', 'ssm:TerminateSession'],
        Resource: regions.map((region) => `arn:aws:ssm:${region}:*:session/${sessionNameOf(leaseId)}-*`),
      },
    ],
  };
}
