import type { PolicyDocument, PolicyStatement } from '../iam-policy';
import { checkpointPrefix, leaseLogStreamPrefix } from './log-streams';
import { shellQuote } from './shell';

/**
 * What a lease's machine may reach, and how it gets there. The instances of
 * every lease share one instance role, and IAM has no policy variable naming
 * the lease of an instance-profile session (`ec2:SourceInstanceARN` names the
 * instance, but a replacement is another instance that must reach the same
 * data, and a warm machine serves one lease after another). So the instance
 * role reaches no lease's data at all (infra/constructs/fleet.ts): the
 * functions that start an attempt, or keep a machine's credentials fresh,
 * assume the lease machine role with the session policy of
 * `leaseMachinePolicy`, which names this lease's data only, and write the
 * credentials onto the machine (`leaseMachineCredentialLines`). Everything
 * the machine does for its lease (secrets, checkpoints, task output, GPU
 * telemetry, image pulls) goes through them.
 */
export interface LeaseMachineScope {
  readonly tenantId: string;
  readonly leaseId: string;
  /** The checkpoint bucket's name. */
  readonly checkpointBucket: string;
  /** The task output log group's name. */
  readonly taskOutputLogGroup: string;
}

/**
 * The CloudWatch namespace only this lease's credentials may put metrics into
 * (its machines' GPU telemetry). Under the tenant's own prefix: a tenant that
 * reads `gpurent/<tenant>/…` reads only its own leases; tenant ids hold no `/`.
 */
export const leaseMetricNamespace = (tenantId: string, leaseId: string) =>
  `gpurent/${tenantId}/leases/${leaseId}`;

/** Where the lease's tenant keeps secrets: SSM parameters `/gpurent/<tenant>/…`, Secrets Manager `gpurent/<tenant>/…`. */
export const tenantParameterPath = (tenantId: string) => `/gpurent/${tenantId}/`;
export const tenantSecretPrefix = (tenantId: string) => `gpurent/${tenantId}/`;
/** The tenant's private images: ECR repositories `gpurent/<tenant>/…`. */
export const tenantRepositoryPrefix = (tenantId: string) => `gpurent/${tenantId}/`;

/** The lease's checkpoint prefix: its objects (all of `access`), and a listing of it alone. */
function checkpointStatements(
  bucket: string,
  prefix: string,
  access: 'readWrite' | 'read',
): PolicyStatement[] {
  return [
    {
      Sid: 'TheLeaseCheckpointObjects',
      Effect: 'Allow',
      Action:
        access === 'read'
          ? ['s3:GetObject']
          : ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
      Resource: [`arn:aws:s3:::${bucket}/${prefix}*`],
    },
    {
      Sid: 'ListingOnlyTheLeasePrefix',
      Effect: 'Allow',
      Action: ['s3:ListBucket'],
      Resource: [`arn:aws:s3:::${bucket}`],
      Condition: { StringLike: { 's3:prefix': [prefix, `${prefix}*`] } },
    },
  ];
}

/**
 * The session policy of a lease's machine credentials. Region and account are
 * left open (`*`): the lease machine role's own policy pins the account, and
 * a lease runs in whichever GPU region placement chose.
 */
export function leaseMachinePolicy(scope: LeaseMachineScope): PolicyDocument {
  const { tenantId, leaseId } = scope;
  return {
    Version: '2012-10-17',
    Statement: [
      ...checkpointStatements(scope.checkpointBucket, checkpointPrefix(tenantId, leaseId), 'readWrite'),
      {
        Sid: 'TheTenantParameters',
        Effect: 'Allow',
        Action: ['ssm:GetParameter', 'ssm:GetParameters'],
        Resource: [`arn:aws:ssm:*:*:parameter${tenantParameterPath(tenantId)}*`],
      },
      {
        Sid: 'TheTenantSecrets',
        Effect: 'Allow',
        Action: ['secretsmanager:GetSecretValue'],
        Resource: [`arn:aws:secretsmanager:*:*:secret:${tenantSecretPrefix(tenantId)}*`],
      },
      {
        Sid: 'TheLeaseTaskOutputStreams',
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: [
          `arn:aws:logs:*:*:log-group:${scope.taskOutputLogGroup}:log-stream:${leaseLogStreamPrefix(leaseId)}*`,
        ],
      },
      {
        // PutMetricData has no resource type: the namespace condition is the only way to name what it writes.
        Sid: 'TheLeaseMetricNamespace',
        Effect: 'Allow',
        Action: ['cloudwatch:PutMetricData'],
        Resource: ['*'],
        Condition: { StringEquals: { 'cloudwatch:namespace': leaseMetricNamespace(tenantId, leaseId) } },
      },
      {
        // GetAuthorizationToken has no resource type; the token pulls only what the statement below allows.
        Sid: 'RegistryLogin',
        Effect: 'Allow',
        Action: ['ecr:GetAuthorizationToken'],
        Resource: ['*'],
      },
      {
        Sid: 'TheTenantImages',
        Effect: 'Allow',
        Action: ['ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer', 'ecr:BatchCheckLayerAvailability'],
        Resource: [`arn:aws:ecr:*:*:repository/${tenantRepositoryPrefix(tenantId)}*`],
      },
    ],
  };
}

/** The control plane reading a task's progress: the lease's checkpoints, read only. */
export function checkpointReadPolicy(bucket: string, tenantId: string, leaseId: string): PolicyDocument {
  return {
    Version: '2012-10-17',
    Statement: checkpointStatements(bucket, checkpointPrefix(tenantId, leaseId), 'read'),
  };
}

/**
 * Chained role sessions (a Lambda's role assuming another) last an hour at
 * most, so a running attempt gets fresh credentials before that
 * (`leaseMachineRefreshDue`).
 */
export const LEASE_MACHINE_CREDENTIALS_SECONDS = 3_600;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * Whether a run of the five-minute reconciler (re)sends a machine's lease
 * credentials, counted from when the machine came to the lease: in its first
 * 15 minutes (the send when the lease starts can come before the machine's
 * SSM agent is registered), then in minutes 30-45 of each hour. Each
 * credential lasts an hour from its minting and the windows are at most 45
 * minutes apart, so the next one is always minted before the last expires,
 * three runs get each chance (a late or failed one is covered by the next),
 * and a machine that runs for days costs three small commands an hour,
 * without any record of when the last one went.
 */
export function leaseMachineRefreshDue(sinceMs: number, nowMs: number): boolean {
  const elapsed = nowMs - sinceMs;
  if (elapsed < 0) return false;
  if (elapsed < 15 * MINUTE_MS) return true;
  const intoHour = elapsed % HOUR_MS;
  return intoHour >= 30 * MINUTE_MS && intoHour < 45 * MINUTE_MS;
}

/** The SSM comment of a delivery or refresh: it is no attempt (the local agent takes the credentials from it and runs nothing). */
export const LEASE_MACHINE_REFRESH_COMMENT = 'gpurent lease machine credentials';

/** A role session name STS accepts (2-64 of `[\w+=,.@-]`); CloudTrail names the lease by it. */
export const leaseMachineSessionName = (leaseId: string) => `gpurent-machine-${leaseId}`.slice(0, 64);

/** The profile an attempt's AWS SDKs and CLI use: `credential_process` reads the file gpurent refreshes. */
export const LEASE_MACHINE_PROFILE = 'gpurent-lease';

/** Where, on the instance, the lease's machine credentials live (root-only, tmpfs). */
export const leaseMachineDir = (leaseId: string, root = '/run/gpurent') => `${root}/${leaseId}`;

export interface LeaseMachineCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken: string;
  readonly expiresAtMs: number;
}

/** The credential_process JSON (Version 1, with Expiration, so SDKs and the CLI read it again once it passes). */
const credentialProcessJson = (credentials: LeaseMachineCredentials) =>
  JSON.stringify({
    Version: 1,
    AccessKeyId: credentials.accessKeyId,
    SecretAccessKey: credentials.secretAccessKey,
    SessionToken: credentials.sessionToken,
    Expiration: new Date(credentials.expiresAtMs).toISOString(),
  });

/** The line that swaps the JSON in: what `credentialsInScript` reads back out of a command. */
const JSON_LINE = /^\(umask 077 && printf '%s' '((?:[^']|'"'"')*)' > /;

/**
 * Shell lines that (re)write the lease's credentials: the credential_process
 * JSON swapped in with a rename so a reader never sees half a file, the AWS
 * config naming the profile, and the same keys as a shared credentials file
 * for the GPU telemetry agent (which reads no credential_process), then
 * `afterwards` (the agent's restart onto them). The same lines start an
 * attempt and refresh it.
 */
export function leaseMachineCredentialLines(
  leaseId: string,
  credentials: LeaseMachineCredentials,
  options: { readonly root?: string; readonly afterwards?: readonly string[] } = {},
): string[] {
  const dir = leaseMachineDir(leaseId, options.root);
  const file = `${dir}/credentials.json`;
  const ini = [
    `[${LEASE_MACHINE_PROFILE}]`,
    `aws_access_key_id = ${credentials.accessKeyId}`,
    `aws_secret_access_key = ${credentials.secretAccessKey}`,
    `aws_session_token = ${credentials.sessionToken}`,
  ].join('\n');
  const swap = (target: string, text: string) =>
    `(umask 077 && printf '%s' ${shellQuote(text)} > ${shellQuote(`${target}.new`)} && mv ${shellQuote(`${target}.new`)} ${shellQuote(target)})`;
  return [
    `install -d -m 0700 ${shellQuote(dir)}`,
    swap(file, credentialProcessJson(credentials)),
    swap(`${dir}/credentials`, `${ini}\n`),
    `printf '%s\\n' ${shellQuote(`[profile ${LEASE_MACHINE_PROFILE}]`)} ${shellQuote(`credential_process = cat ${file}`)} > ${shellQuote(`${dir}/config`)}`,
    ...(options.afterwards ?? []),
  ];
}

/**
 * The lease credentials a command's script carries, as `leaseMachineCredentialLines`
 * wrote them: how the local SSM agent, which runs no real machine, uses the very
 * credentials the control plane minted for the lease.
 */
export function credentialsInScript(commands: readonly string[]): LeaseMachineCredentials | undefined {
  for (const line of commands) {
    const quoted = JSON_LINE.exec(line)?.[1];
    if (quoted === undefined) continue;
    try {
      const parsed = JSON.parse(quoted.replaceAll(`'"'"'`, "'")) as Record<string, unknown>;
      const { AccessKeyId, SecretAccessKey, SessionToken, Expiration } = parsed;
      if (
        typeof AccessKeyId === 'string' &&
        typeof SecretAccessKey === 'string' &&
        typeof SessionToken === 'string' &&
        typeof Expiration === 'string'
      ) {
        return {
          accessKeyId: AccessKeyId,
          secretAccessKey: SecretAccessKey,
          sessionToken: SessionToken,
          expiresAtMs: Date.parse(Expiration),
        };
      }
    } catch {
      // Not the credentials line after all.
    }
  }
  return undefined;
}

/** The variables that point an attempt's AWS SDKs and CLI at the lease's profile. */
export const leaseMachineProfileVariables = (leaseId: string, root?: string): [string, string][] => [
  ['AWS_CONFIG_FILE', `${leaseMachineDir(leaseId, root)}/config`],
  ['AWS_PROFILE', LEASE_MACHINE_PROFILE],
];
