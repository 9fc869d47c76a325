import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { type CliIo, client, leaseIdArgument } from './common';
import { CliError } from './errors';

interface SessionAnswer {
  readonly credentials: { accessKeyId: string; secretAccessKey: string; sessionToken: string };
  readonly expiresAt: string;
  readonly instances: readonly { instanceId: string; region: string; command: string }[];
}

/** Whether `program` is an executable file in one of PATH's folders. */
export async function onPath(program: string, path = process.env.PATH ?? ''): Promise<boolean> {
  for (const folder of path.split(delimiter).filter(Boolean)) {
    try {
      await access(join(folder, program), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

/** What to install before `gpurent ssh` can work, or nothing. */
export async function missingSessionTools(path?: string): Promise<string | undefined> {
  if (!(await onPath('aws', path))) {
    return 'gpurent ssh needs the AWS CLI v2: https://docs.aws.amazon.com/cli/latest/userguide/getting-started-install.html';
  }
  if (!(await onPath('session-manager-plugin', path))) {
    return 'gpurent ssh needs the Session Manager plugin for the AWS CLI (session-manager-plugin is not on PATH): https://docs.aws.amazon.com/systems-manager/latest/userguide/session-manager-working-with-install-plugin.html';
  }
  return undefined;
}

export interface SshOptions {
  readonly instance?: string;
}

/** Opens a Session Manager session to one of the lease's instances with credentials for it alone. */
export async function ssh(id: string, options: SshOptions, io: CliIo): Promise<void> {
  const leaseId = leaseIdArgument(id);
  const missing = await missingSessionTools();
  if (missing) throw new CliError(missing);
  const answer = (await (await client()).request<SessionAnswer>('POST', `v1/leases/${leaseId}/session`)).body;
  const target = options.instance
    ? answer.instances.find((instance) => instance.instanceId === options.instance)
    : answer.instances[0];
  if (!target)
    throw new CliError(`lease ${leaseId} has no running instance ${options.instance ?? ''}`.trim());
  io.progress(
    `session to ${target.instanceId} (${target.region}); credentials valid until ${answer.expiresAt}\n`,
  );
  // The session's credentials, not a profile's.
  const { AWS_PROFILE: _profile, ...inherited } = process.env;
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(
      'aws',
      ['ssm', 'start-session', '--target', target.instanceId, '--region', target.region],
      {
        stdio: 'inherit',
        env: {
          ...inherited,
          AWS_ACCESS_KEY_ID: answer.credentials.accessKeyId,
          AWS_SECRET_ACCESS_KEY: answer.credentials.secretAccessKey,
          AWS_SESSION_TOKEN: answer.credentials.sessionToken,
        },
      },
    );
    child.on('error', reject);
    child.on('exit', (status) => resolve(status ?? 1));
  });
  if (code !== 0) throw new CliError(`aws ssm start-session exited with ${code}`, code);
}
