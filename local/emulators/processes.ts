import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer, Socket } from 'node:net';

/** A free TCP port on loopback, chosen by the OS. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export class MissingToolError extends Error {
  constructor(tool: string, hint: string) {
    super(`${tool} was not found on PATH. ${hint}`);
    this.name = 'MissingToolError';
  }
}

/** Fails fast, naming the missing piece, before anything is started. */
export function requireTool(command: string, versionArgs: readonly string[], hint: string): void {
  const probe = spawnSync(command, [...versionArgs], { stdio: 'ignore' });
  if (probe.error) throw new MissingToolError(command, hint);
}

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}

export interface ManagedProcess {
  readonly name: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts a child process and resolves once it accepts connections on `port`. */
export async function startProcess(
  name: string,
  command: string,
  args: readonly string[],
  port: number,
  options: { cwd?: string; timeoutMs?: number; env?: Readonly<Record<string, string>> } = {},
): Promise<ManagedProcess> {
  const child: ChildProcess = spawn(command, [...args], {
    cwd: options.cwd,
    env: options.env === undefined ? undefined : { ...process.env, ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // Never leave an emulator behind when this process ends, however it ends.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (!(await portAccepts(port))) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not listen on port ${port} in time: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    name,
    port,
    async stop() {
      process.removeListener('exit', killOnExit);
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Starts everything side by side; if any start fails, stops those that did
 * and throws that failure, so no emulator outlives a failed start.
 */
export async function startAllOrNone<T extends { stop(): Promise<void> }>(
  starts: readonly Promise<T>[],
): Promise<T[]> {
  const results = await Promise.allSettled(starts);
  const started = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) {
    await Promise.all(started.map((item) => item.stop()));
    throw failure.reason;
  }
  return started;
}
