import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProcessLauncher, startProcessLauncher } from '../../../local/runtime/process-launcher';
import { processAlive } from '../../support/processes';

describe('process launcher', () => {
  let launcher: ProcessLauncher | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await launcher?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('runs the command in its folder with only the variables given, with its output and exit code', async () => {
    launcher = startProcessLauncher();
    folder = await mkdtemp(join(tmpdir(), 'launcher-'));
    process.env.LAUNCHER_TEST_LEAK = 'leaked';
    const launched = await launcher.launch({
      command: '/bin/bash',
      args: [
        '-c',
        'echo "in $(pwd) as $GREETING $(printenv LAUNCHER_TEST_LEAK || echo none)"; echo oops >&2; exit 3',
      ],
      cwd: folder,
      env: { PATH: '/usr/bin:/bin', GREETING: 'hello' },
    });
    delete process.env.LAUNCHER_TEST_LEAK;
    expect(await launched.exited).toBe(3);
    expect(launched.output.stdout.join('')).toBe(`in ${folder} as hello none\n`);
    expect(launched.output.stderr.join('')).toBe('oops\n');
  });

  it('leads a process group of its own, which a kill of the group ends', async () => {
    launcher = startProcessLauncher();
    folder = await mkdtemp(join(tmpdir(), 'launcher-'));
    const launched = await launcher.launch({
      command: '/bin/bash',
      args: ['-c', 'sleep 30 & wait'],
      cwd: folder,
      env: { PATH: '/usr/bin:/bin' },
    });
    expect(processAlive(launched.pid)).toBe(true);
    process.kill(-launched.pid, 'SIGKILL');
    expect(await launched.exited).toBeNull();
    expect(processAlive(launched.pid)).toBe(false);
  });

  it('says so when the command cannot start', async () => {
    launcher = startProcessLauncher();
    folder = await mkdtemp(join(tmpdir(), 'launcher-'));
    await expect(
      launcher.launch({ command: join(folder, 'not-there'), args: [], cwd: folder, env: {} }),
    ).rejects.toThrow(/did not start: .*ENOENT/);
  });
});
