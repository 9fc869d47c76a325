import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What a launched process is to the agent: its group to kill, its output, its end. */
export interface LaunchedProcess {
  /** Also its process group's id: it leads a group of its own. */
  readonly pid: number;
  readonly output: { readonly stdout: string[]; readonly stderr: string[] };
  /** Its exit code once it and its output are done (null when a signal ended it). */
  readonly exited: Promise<number | null>;
}

export interface LaunchRequest {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

export interface ProcessLauncher {
  launch(request: LaunchRequest): Promise<LaunchedProcess>;
  stop(): Promise<void>;
}

type LauncherMessage =
  | { readonly id: number; readonly type: 'spawned'; readonly pid: number }
  | { readonly id: number; readonly type: 'stdout' | 'stderr'; readonly data: string }
  | { readonly id: number; readonly type: 'exit'; readonly code: number | null }
  | { readonly id: number; readonly type: 'failed'; readonly message: string };

interface Pending {
  readonly spawned: (process: LaunchedProcess) => void;
  readonly failed: (error: Error) => void;
  process?: LaunchedProcess;
  exit?: (code: number | null) => void;
}

const CHILD = fileURLToPath(new URL('./process-launcher-child.mjs', import.meta.url));

/**
 * Starts tasks' processes from a small process of its own. Linux forks a
 * child by copying its parent's page tables, and the local stack's one Node
 * process (every function, the gateway, fauxqs) holds hundreds of MiB:
 * each spawn from it blocked the event loop, and so every handler, for
 * about 100 ms. On AWS the task starts on its own instance and costs the
 * control plane nothing; forking from a launcher of a few tens of MiB keeps
 * the local stand-in close to that.
 */
export function startProcessLauncher(): ProcessLauncher {
  let child: ChildProcess | undefined;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  const onMessage = (message: LauncherMessage) => {
    const entry = pending.get(message.id);
    if (!entry) return;
    switch (message.type) {
      case 'spawned': {
        const output = { stdout: [] as string[], stderr: [] as string[] };
        const exited = new Promise<number | null>((resolve) => {
          entry.exit = resolve;
        });
        entry.process = { pid: message.pid, output, exited };
        entry.spawned(entry.process);
        return;
      }
      case 'stdout':
      case 'stderr':
        entry.process?.output[message.type].push(message.data);
        return;
      case 'exit':
        pending.delete(message.id);
        entry.exit?.(message.code);
        return;
      case 'failed':
        pending.delete(message.id);
        entry.failed(new Error(`local SSM agent: the task's process did not start: ${message.message}`));
        return;
    }
  };

  /** Forked on first use, with no loader flags: the launcher is plain JavaScript. */
  const launcher = () => {
    if (child?.connected) return child;
    const started = fork(CHILD, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    started.on('message', onMessage);
    // A launcher that died ends its processes' waits: their output is lost with it.
    started.on('exit', () => {
      for (const [id, entry] of pending) {
        pending.delete(id);
        if (entry.exit) entry.exit(null);
        else entry.failed(new Error('local SSM agent: the process launcher exited'));
      }
    });
    child = started;
    return started;
  };

  return {
    launch(request) {
      const id = nextId++;
      return new Promise<LaunchedProcess>((spawned, failed) => {
        pending.set(id, { spawned, failed });
        launcher().send({ id, ...request });
      });
    },
    async stop() {
      if (!child?.connected) return;
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}
