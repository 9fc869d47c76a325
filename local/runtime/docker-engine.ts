import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** A Docker engine the local SSM agent can run tasks' images on. */
export interface DockerEngine {
  /** The engine has NVIDIA's runtime, so `--gpus all` works. */
  readonly gpus: boolean;
}

type Run = (
  file: string,
  args: readonly string[],
  options: { timeout: number },
) => Promise<{ stdout: string }>;

const execFileText: Run = async (file, args, options) => {
  const { stdout } = await promisify(execFile)(file, [...args], { ...options, encoding: 'utf8' });
  return { stdout };
};

/** The engine as `docker info --format '{{json .Runtimes}}'` describes it. */
export function engineFromRuntimes(runtimesJson: string): DockerEngine {
  const runtimes = JSON.parse(runtimesJson === '' ? '{}' : runtimesJson) as Record<string, unknown> | null;
  return { gpus: Object.keys(runtimes ?? {}).some((name) => name.includes('nvidia')) };
}

/**
 * The Docker engine this machine reaches, or undefined. A client without a
 * running daemon answers `docker --version` but fails `docker info`: that is
 * no engine, and tasks run as child processes instead.
 */
export async function probeDockerEngine(run: Run = execFileText): Promise<DockerEngine | undefined> {
  try {
    const { stdout } = await run('docker', ['info', '--format', '{{json .Runtimes}}'], { timeout: 10_000 });
    return engineFromRuntimes(stdout.trim());
  } catch {
    return undefined;
  }
}

/** Removes a task's container (killing the `docker run` client leaves it running). */
export async function removeContainer(name: string, run: Run = execFileText): Promise<void> {
  await run('docker', ['rm', '--force', name], { timeout: 30_000 });
}
