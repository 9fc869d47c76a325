// The process the local SSM agent forks its tasks from (see process-launcher.ts).
// Plain JavaScript, so it runs on bare node without the TypeScript loader, and
// stays a few tens of MiB: forking from it costs about 2 ms, not the 100 ms
// that a fork from the control plane's own process blocks its event loop for.
import { spawn } from 'node:child_process';

process.on('message', (request) => {
  const { id, command, args, cwd, env } = request;
  let child;
  try {
    child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    process.send?.({ id, type: 'failed', message: String(error) });
    return;
  }
  child.on('error', (error) => process.send?.({ id, type: 'failed', message: String(error) }));
  if (child.pid === undefined) return;
  process.send?.({ id, type: 'spawned', pid: child.pid });
  child.stdout.on('data', (chunk) => process.send?.({ id, type: 'stdout', data: chunk.toString('utf8') }));
  child.stderr.on('data', (chunk) => process.send?.({ id, type: 'stderr', data: chunk.toString('utf8') }));
  // After 'close', every chunk of its output has been sent: the channel keeps their order.
  child.on('close', (code) => process.send?.({ id, type: 'exit', code }));
});

// The agent is gone: nothing will read what its tasks say, and nothing is left to launch.
process.on('disconnect', () => process.exit(0));
