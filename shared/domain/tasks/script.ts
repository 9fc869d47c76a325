import { attemptOutputFiles, attemptOutputLines, leaseAgentLines } from '../gpu-telemetry-agent';
import {
  type LeaseMachineCredentials,
  leaseMachineCredentialLines,
  leaseMachineDir,
  leaseMachineProfileVariables,
  leaseMetricNamespace,
} from './lease-machine-access';
import { shellQuote } from './shell';
import { secretSourceOf, type TaskSpec } from './spec';

/** The lease's machine credentials an attempt runs with, and where they go on the machine. */
export interface AttemptMachineAccess {
  readonly leaseId: string;
  readonly credentials: LeaseMachineCredentials;
  /** Where the lease's credential folder goes: `/run/gpurent` on an instance, a run folder locally. */
  readonly root?: string | undefined;
  /**
   * The task output group the machine's agent ships the attempt's output to
   * (with these credentials, into the lease's own streams). Absent locally,
   * where the stand-in agent ships what the process prints.
   */
  readonly outputLogGroup?: string | undefined;
}

/** What an attempt's script knows beyond the spec. */
export interface AttemptContext {
  readonly tenantId: string;
  readonly attempt: number;
  readonly checkpointUri: string;
  /** `container`: `docker run --gpus all` when the spec names an image; `host`: the command on the machine. */
  readonly runtime: 'container' | 'host';
  /** The lease's machine credentials: secrets, checkpoints, output and telemetry all go through them. */
  readonly machineAccess?: AttemptMachineAccess;
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

/** An ECR registry host (`<account>.dkr.ecr.<region>.amazonaws.com`) and its region. */
const ECR_REGISTRY = /^(\d{12}\.dkr\.ecr\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?)\//;

/**
 * Docker's login to the image's ECR registry with the lease's credentials
 * (which may pull only the tenant's repositories): none for another registry.
 */
function registryLogin(image: string): string[] {
  const match = ECR_REGISTRY.exec(image);
  if (!match) return [];
  const [, registry = '', region = ''] = match;
  return [
    `aws ecr get-login-password --region ${shellQuote(region)} | docker login --username AWS --password-stdin ${shellQuote(registry)}`,
  ];
}

/**
 * The lines that put the lease's machine credentials on the machine and
 * (re)start its agent on them, for the lease's GPU telemetry and the output
 * of its attempts: what an attempt starts with, and the whole of a refresh.
 */
export function leaseMachineLines(tenantId: string, access: AttemptMachineAccess): string[] {
  const dir = leaseMachineDir(access.leaseId, access.root);
  return leaseMachineCredentialLines(access.leaseId, access.credentials, {
    root: access.root,
    afterwards: leaseAgentLines(dir, leaseMetricNamespace(tenantId, access.leaseId)),
  });
}

/**
 * The `commands` of AWS-RunShellScript for one attempt: the lease's machine
 * credentials written and its profile exported first, so that the secrets
 * are resolved with them (never the instance role, which reads none), then
 * the variables, the working directory, `timeout` for maxRuntimeMinutes
 * (exit 124), and the command itself, in the image with `docker run --gpus
 * all` or on the machine. On an instance its output goes to two files the
 * agent ships to the lease's own streams. The script exits with the
 * command's code, which SSM reports.
 */
export function taskScript(spec: TaskSpec, context: AttemptContext): string[] {
  const variables: [string, string][] = [
    ...Object.entries(spec.env ?? {}),
    ['GPURENT_ATTEMPT', String(context.attempt)],
    ['GPURENT_CHECKPOINT_URI', context.checkpointUri],
  ];
  const access = context.machineAccess;
  const dir = access === undefined ? undefined : leaseMachineDir(access.leaseId, access.root);
  const profile = access === undefined ? [] : leaseMachineProfileVariables(access.leaseId, access.root);
  const names = [
    ...variables.map(([name]) => name),
    ...Object.keys(spec.secrets ?? {}),
    ...profile.map(([name]) => name),
  ];
  const shipped = access?.outputLogGroup;
  const lines = [
    'set -eu',
    ...(access === undefined || dir === undefined
      ? []
      : [
          // The agent's collection of this attempt's output, in place before the agent (re)starts.
          ...(shipped === undefined ? [] : attemptOutputLines(dir, access.leaseId, context.attempt, shipped)),
          ...leaseMachineLines(context.tenantId, access),
        ]),
    ...profile.map(([name, value]) => `export ${name}=${shellQuote(value)}`),
    ...variables.map(([name, value]) => `export ${name}=${shellQuote(value)}`),
    ...Object.entries(spec.secrets ?? {}).flatMap(([name, reference]) => [
      secretLine(name, reference, context.tenantId),
      `export ${name}`,
    ]),
  ];
  // The command's output into the files the agent ships: SSM's own output capture would write with the instance role.
  const files =
    shipped === undefined || dir === undefined ? undefined : attemptOutputFiles(dir, context.attempt);
  const redirect = files === undefined ? '' : ` >>${shellQuote(files.stdout)} 2>>${shellQuote(files.stderr)}`;
  const limit = spec.maxRuntimeMinutes === undefined ? '' : `timeout ${spec.maxRuntimeMinutes * 60}s `;
  const command = commandLine(spec);
  if (context.runtime === 'container' && spec.image !== undefined) {
    const workdir = spec.workdir === undefined ? '' : ` -w ${shellQuote(spec.workdir)}`;
    const envFlags = names.map((name) => ` -e ${name}`).join('');
    const local = context.localEngine;
    const mounts = [
      // The profile's credential_process reads the refreshed file: mounted read-only at the same path.
      ...(dir === undefined ? [] : [`${dir}:${dir}:ro`]),
      ...(local?.mounts ?? []).map((folder) => `${folder}:${folder}`),
    ]
      .map((mount) => ` -v ${shellQuote(mount)}`)
      .join('');
    const gpus = local === undefined || local.gpus ? ' --gpus all' : '';
    const name = local === undefined ? '' : ` --name ${shellQuote(local.containerName)}`;
    // Docker's default bridge network, not the host's: with the launch template's hop limit of 1,
    // IMDS's answers never reach the container, so task code cannot take the instance role's
    // credentials (docs/ARCHITECTURE.md, "Machine credentials").
    return [
      ...lines,
      ...(access === undefined ? [] : registryLogin(spec.image)),
      `${limit}docker run --rm${name}${gpus}${envFlags}${mounts}${workdir} ${shellQuote(spec.image)} ${command}${redirect}`,
    ];
  }
  return [
    ...lines,
    ...(spec.workdir === undefined
      ? []
      : [`mkdir -p ${shellQuote(spec.workdir)}`, `cd ${shellQuote(spec.workdir)}`]),
    `${limit}${command}${redirect}`,
  ];
}
