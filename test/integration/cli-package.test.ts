import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack, writeLocalManifest } from '../../local/stack';
import { runCommand } from '../support/cli';
import { emulatorEndpoints } from '../support/emulators';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A user's shell: none of the variables npm sets for the test run (INIT_CWD, npm_config_prefix, …). */
const shellEnv = (extra: Record<string, string> = {}) => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') && name !== 'INIT_CWD'),
  ),
  ...extra,
});

let stack: LocalStack;
/** A directory outside the checkout: the tarball, the install prefix, the user's working directory. */
let work: string;
let prefix: string;
let tarballFiles: string[];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'gpurent-package-'));
  prefix = join(work, 'prefix');
  // npm pack runs `prepare`, which bundles the CLI from the sources.
  const packed = await run('npm', ['pack', '--pack-destination', work, '--json'], {
    cwd: REPO_ROOT,
    env: shellEnv(),
  });
  const [tarball] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  if (!tarball) throw new Error(`npm pack printed no package: ${packed.stdout}`);
  tarballFiles = tarball.files.map((file) => file.path);
  // Offline: the package has no runtime dependency, so the install needs no registry.
  await run(
    'npm',
    ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball.filename],
    { cwd: work, env: shellEnv() },
  );
  stack = await startLocalStack({
    port: 0,
    endpoints: emulatorEndpoints(),
    timers: false,
    prefix: `clipkg${Date.now()}`,
  });
  await writeLocalManifest(join(work, '.gpurent/local.json'), stack);
});

afterAll(() => stack?.stop());

/** The installed command, started by its own `#!/usr/bin/env node` line, in `work`. */
const gpurent = (...args: string[]) =>
  runCommand(join(prefix, 'bin', 'gpurent'), args, {
    cwd: work,
    env: shellEnv({ GPURENT_CONFIG_DIR: join(work, 'config') }),
  });

describe('the packed gpurent package, installed into a fresh prefix', () => {
  it('carries the bundle, the README and package.json only, and installs without dependencies', () => {
    expect(tarballFiles).toContain('dist/gpurent.mjs');
    expect(tarballFiles.filter((path) => !/^dist\/[\w-]+\.mjs$/.test(path)).sort()).toEqual([
      'README.md',
      'package.json',
    ]);
    const installed = join(prefix, 'lib', 'node_modules');
    expect(readdirSync(installed)).toEqual(['gpurent']);
    expect(readdirSync(join(installed, 'gpurent')).sort()).toEqual(['README.md', 'dist', 'package.json']);
    const manifest = JSON.parse(readFileSync(join(installed, 'gpurent', 'package.json'), 'utf8'));
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.bin).toEqual({ gpurent: 'dist/gpurent.mjs' });
  });

  it('gpurent --help answers, and simulate --help loads the planner from the bundle', async () => {
    const help = await gpurent('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: gpurent /);
    expect(help.stdout).toMatch(/^ {2}usage \[options\]/m);
    const simulate = await gpurent('simulate', '--help');
    expect(simulate.code).toBe(0);
    expect(simulate.stdout).toMatch(/^Usage: gpurent simulate --trace FILE/);
  });

  it('gpurent usage --group-by day against the local stack: a metered lease in its day', async () => {
    expect((await gpurent('login', '--local')).code).toBe(0);
    const created = await gpurent(...'lease create --workload training --gpus 1 --wait --json'.split(' '));
    expect(created.code).toBe(0);
    const lease = JSON.parse(created.stdout);
    expect(lease.status).toBe('RUNNING');
    // One metering tick, as the one-minute schedule fires it: the first minute is billed.
    await stack.schedules.fire('gpurent-metering', Date.now());

    const byDay = await gpurent('usage', '--group-by', 'day', '--json');
    expect(byDay.code).toBe(0);
    const usage = JSON.parse(byDay.stdout);
    expect(usage).toMatchObject({ groupBy: 'day', seconds: 60 });
    expect(usage.groups).toEqual([
      expect.objectContaining({ key: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), seconds: 60 }),
    ]);
    const table = await gpurent('usage', '--group-by', 'day');
    expect(table.stdout).toMatch(/^DAY\s+INSTANCE-SECONDS\s+COST USD\s+IDLE USD$/m);
    expect(table.stdout).toMatch(new RegExp(`^${usage.groups[0].key}\\s+60\\s`, 'm'));

    expect((await gpurent('lease', 'rm', lease.leaseId)).code).toBe(0);
  });
});
