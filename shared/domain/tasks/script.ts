import {
  type CheckpointCredentials,
  checkpointCredentialLines,
  checkpointCredentialsDir,
  checkpointProfileVariables,
} from './checkpoint-access';
import { shellQuote } from './shell';
import { secretSourceOf, type TaskSpec } from './spec';

/** What an attempt's script knows beyond the spec. */
export interface AttemptContext {
  readonly tenantId: string;
  readonly attempt: number;
  readonly checkpointUri: string;
  /** `container`: `docker run --gpus all` when the spec names an image; `host`: the command on the machine. */
  readonly runtime: 'container' | 'host';
  /** The lease's checkpoint credentials, narrowed to its prefix; none locally, where the agent syncs the prefix itself. */
  readonly checkpointAccess?: { readonly leaseId: string; readonly credentials: CheckpointCredentials };
  /**
   * How the local stand-in runs an image on a Docker engine of its own: no
   * `--gpus all` unless the engine has the NVIDIA runtime, its folder mounted
   * at the same path, and a name to remove the container by when the attempt
   * is killed. In AWS none is given: the instance has the toolkit and SSM ends the process.
   */
  readonly localEngine?: {
    readonly gpus: boolean;
    readonly mounts: readonly string[];
    readonly containerName: string;
  };
}

/** A shell string runs in `sh -c`; an argv runs as it is, each argument quoted. */
function commandLine(spec: TaskSpec): string {
  return typeof spec.command === 'string'
    ? `/bin/sh -c ${shellQuote(spec.command)}`
    : spec.command.map(shellQuote).join(' ');
}

function secretLine(name: string, reference: string, tenantId: string): string {
  const ref = shellQuote(reference);
  return secretSourceOf(reference, tenantId) === 'secretsmanager'
    ? `${name}="$(aws secretsmanager get-secret-value --secret-id ${ref} --query SecretString --output text)"`
    : `${name}="$(aws ssm get-parameter --with-decryption --name ${ref} --query Parameter.Value --output text)"`;
}

/**
 * The `commands` of AWS-RunShellScript for one attempt: variables exported
 * (secrets resolved on the instance, never stored), the working directory,
 * `timeout` for maxRuntimeMinutes (exit 124), then the command itself, in the
 * image with `docker run --gpus all` or on the machine. The script exits with
 * the command's code, which SSM reports.
 */
export function taskScript(spec: TaskSpec, context: AttemptContext): string[] {
  const variables: [string, string][] = [
    ...Object.entries(spec.env ?? {}),
    ['GPURENT_ATTEMPT', String(context.attempt)],
    ['GPURENT_CHECKPOINT_URI', context.checkpointUri],
  ];
  const access = context.checkpointAccess;
  // After the secrets: they are resolved with the instance's own role, the task runs with the lease's profile.
  const profile = access === undefined ? [] : checkpointProfileVariables(access.leaseId);
  const names = [
    ...variables.map(([name]) => name),
    ...Object.keys(spec.secrets ?? {}),
    ...profile.map(([name]) => name),
  ];
  const lines = [
    'set -eu',
    ...variables.map(([name, value]) => `export ${name}=${shellQuote(value)}`),
    ...Object.entries(spec.secrets ?? {}).flatMap(([name, reference]) => [
      secretLine(name, reference, context.tenantId),
      `export ${name}`,
    ]),
    ...(access === undefined ? [] : checkpointCredentialLines(access.leaseId, access.credentials)),
    ...profile.map(([name, value]) => `export ${name}=${shellQuote(value)}`),
  ];
  const limit = spec.maxRuntimeMinutes === undefined ? '' : `timeout ${spec.maxRuntimeMinutes * 60}s `;
  const command = commandLine(spec);
  if (context.runtime === 'container' && spec.image !== undefined) {
    const workdir = spec.workdir === undefined ? '' : ` -w ${shellQuote(spec.workdir)}`;
    const envFlags = names.map((name) => ` -e ${name}`).join('');
    // The profile's credential_process reads the refreshed file: mounted read-only at the same path.
    const local = context.localEngine;
    const mounts = [
      // The profile's credential_process reads the refreshed file: mounted read-only at the same path.
      ...(access === undefined
        ? []
        : [`${checkpointCredentialsDir(access.leaseId)}:${checkpointCredentialsDir(access.leaseId)}:ro`]),
      ...(local?.mounts ?? []).map((folder) => `${folder}:${folder}`),
    ]
      .map((mount) => ` -v ${shellQuote(mount)}`)
      .join('');
    const gpus = local === undefined || local.gpus ? ' --gpus all' : '';
    const name = local === undefined ? '' : ` --name ${shellQuote(local.containerName)}`;
    return [
      ...lines,
      `${limit}docker run --rm${name}${gpus} --network host${envFlags}${mounts}${workdir} ${shellQuote(spec.image)} ${command}`,
    ];
  }
  return [
    ...lines,
    ...(spec.workdir === undefined
      ? []
      : [`mkdir -p ${shellQuote(spec.workdir)}`, `cd ${shellQuote(spec.workdir)}`]),
    `${limit}${command}`,
  ];
}
