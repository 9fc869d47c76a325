import type { PolicyDocument } from '../iam-policy';
import { checkpointPrefix } from './log-streams';
import { shellQuote } from './shell';

/**
 * Who may touch a lease's checkpoints. The instances of every lease share one
 * instance role, and IAM has no policy variable naming the lease of an
 * instance-profile session (`ec2:SourceInstanceARN` and `aws:userid` name the
 * instance, but a replacement is another instance that must read the same
 * prefix). So the instance role gets no access to the checkpoint bucket at
 * all: the function that starts an attempt assumes the checkpoint role with
 * this session policy, which allows only the lease's own prefix, and hands
 * the credentials to the attempt (`checkpointCredentialLines`).
 */
export function checkpointSessionPolicy(bucket: string, tenantId: string, leaseId: string): PolicyDocument {
  const prefix = checkpointPrefix(tenantId, leaseId);
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'TheLeaseCheckpointObjects',
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
        Resource: [`arn:aws:s3:::${bucket}/${prefix}*`],
      },
      {
        Sid: 'ListingOnlyTheLeasePrefix',
        Effect: 'Allow',
        Action: ['s3:ListBucket'],
        Resource: [`arn:aws:s3:::${bucket}`],
        Condition: { StringLike: { 's3:prefix': [prefix, `${prefix}*`] } },
      },
    ],
  };
}

/**
 * Chained role sessions (a Lambda's role assuming another) last an hour at
 * most, so attempts get fresh credentials before that (CHECKPOINT_REFRESH_MS).
 */
export const CHECKPOINT_CREDENTIALS_SECONDS = 3_600;

/** A role session name STS accepts (2-64 of `[\w+=,.@-]`); CloudTrail names the lease by it. */
export const checkpointSessionName = (leaseId: string) => `gpurent-ckpt-${leaseId}`.slice(0, 64);

/** The profile an attempt's AWS SDKs and CLI use: `credential_process` reads the file gpurent refreshes. */
export const CHECKPOINT_PROFILE = 'gpurent-checkpoints';

/** Where, on the instance, the lease's checkpoint credentials live (root-only, tmpfs). */
export const checkpointCredentialsDir = (leaseId: string) => `/run/gpurent/${leaseId}`;

export interface CheckpointCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken: string;
  readonly expiresAtMs: number;
}

/**
 * Shell lines that (re)write the lease's credentials where its profile's
 * `credential_process` reads them: the credential_process JSON (Version 1,
 * with Expiration, so SDKs and the CLI read it again once it passes), swapped
 * in with a rename so a reader never sees half a file, and the AWS config
 * naming the profile. The same lines start an attempt and refresh it.
 */
export function checkpointCredentialLines(leaseId: string, credentials: CheckpointCredentials): string[] {
  const dir = checkpointCredentialsDir(leaseId);
  const json = JSON.stringify({
    Version: 1,
    AccessKeyId: credentials.accessKeyId,
    SecretAccessKey: credentials.secretAccessKey,
    SessionToken: credentials.sessionToken,
    Expiration: new Date(credentials.expiresAtMs).toISOString(),
  });
  const file = `${dir}/credentials.json`;
  return [
    `install -d -m 0700 ${shellQuote(dir)}`,
    `(umask 077 && printf '%s' ${shellQuote(json)} > ${shellQuote(`${file}.new`)} && mv ${shellQuote(`${file}.new`)} ${shellQuote(file)})`,
    `printf '%s\\n' ${shellQuote(`[profile ${CHECKPOINT_PROFILE}]`)} ${shellQuote(`credential_process = cat ${file}`)} > ${shellQuote(`${dir}/config`)}`,
  ];
}

/** The variables that point an attempt's AWS SDKs and CLI at the lease's checkpoint profile. */
export const checkpointProfileVariables = (leaseId: string): [string, string][] => [
  ['AWS_CONFIG_FILE', `${checkpointCredentialsDir(leaseId)}/config`],
  ['AWS_PROFILE', CHECKPOINT_PROFILE],
];
