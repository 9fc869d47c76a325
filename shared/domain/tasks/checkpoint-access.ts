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
 * most, so a running attempt gets fresh credentials before that
 * (`checkpointRefreshDue`).
 */
export const CHECKPOINT_CREDENTIALS_SECONDS = 3_600;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * Whether a run of the five-minute reconciler re-sends a running attempt's
 * credentials: in minutes 30-45 of each hour since the attempt started. Each
 * credential lasts an hour from its minting, so the next one is minted 15 to
 * 30 minutes before it expires, three runs get the chance (a late or failed
 * one is covered by the next), and a long attempt costs three small commands
 * an hour, without any record of when the last one went.
 */
export function checkpointRefreshDue(attemptStartedAtMs: number, nowMs: number): boolean {
  const intoHour = (nowMs - attemptStartedAtMs) % HOUR_MS;
  return (
    nowMs - attemptStartedAtMs >= 30 * MINUTE_MS && intoHour >= 30 * MINUTE_MS && intoHour < 45 * MINUTE_MS
  );
}

/** The SSM comment of a refresh: it is no attempt (the local agent, which syncs checkpoints itself, skips it). */
export const CHECKPOINT_REFRESH_COMMENT = 'gpurent checkpoint credentials';

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
