import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../../../cli/common';
import { CliError, EXIT } from '../../../cli/errors';
import { createProgram } from '../../../cli/program';
import { type WarmPoolSetOptions, warmPoolSetBody } from '../../../cli/warm-pools';

const options = (extra: Partial<WarmPoolSetOptions> = {}): WarmPoolSetOptions => ({
  region: 'us-east-1',
  instanceType: 'g5.xlarge',
  size: '2',
  image: 'gpu-base',
  prePull: [],
  ...extra,
});

const exitCodeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof CliError ? error.exitCode : 'not a CliError';
  }
  return 'no error';
};

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('gpurent admin warm-pool set', () => {
  it('sends the pool, a whole size and every --pre-pull', () => {
    expect(
      warmPoolSetBody(
        options({
          zone: 'us-east-1a',
          size: '0',
          prePull: ['ghcr.io/acme/a:1', 'nvcr.io/nvidia/pytorch:24.01-py3'],
        }),
      ),
    ).toEqual({
      region: 'us-east-1',
      zone: 'us-east-1a',
      instanceType: 'g5.xlarge',
      size: 0,
      image: 'gpu-base',
      prePull: ['ghcr.io/acme/a:1', 'nvcr.io/nvidia/pytorch:24.01-py3'],
    });
  });

  it('refuses a size outside 0-100 or not whole as a usage error, before any request', () => {
    for (const size of ['101', '-1', '1.5', 'two'])
      expect(exitCodeOf(() => warmPoolSetBody(options({ size })))).toBe(EXIT.usage);
  });

  it('is a command under admin: requires --size, collects every --pre-pull, then needs a session', async () => {
    // No session here: the action stops at loadSession, after commander has parsed the flags.
    vi.stubEnv('GPURENT_CONFIG_DIR', await mkdtemp(join(tmpdir(), 'gpurent-warm-cli-')));
    const io: CliIo = { out: () => {}, progress: () => {}, cwd: '/', sleep: async () => {} };
    const base = [
      'admin',
      'warm-pool',
      'set',
      'g5-east',
      '--region',
      'us-east-1',
      '--instance-type',
      'g5.xlarge',
    ];
    await expect(createProgram(io).parseAsync(base, { from: 'user' })).rejects.toMatchObject({
      exitCode: EXIT.usage,
      message: "required option '--size <n>' not specified",
    });

    const program = createProgram(io);
    const flags = [
      '--size',
      '2',
      '--image',
      'gpu-base',
      '--pre-pull',
      'ghcr.io/a/b:1',
      '--pre-pull',
      'ghcr.io/c/d:2',
    ];
    await expect(program.parseAsync([...base, ...flags], { from: 'user' })).rejects.toThrow(/^not logged in/);
    const set = program.commands
      .find((c) => c.name() === 'admin')
      ?.commands.find((c) => c.name() === 'warm-pool')
      ?.commands.find((c) => c.name() === 'set');
    expect(set?.opts()).toMatchObject({
      size: '2',
      image: 'gpu-base',
      prePull: ['ghcr.io/a/b:1', 'ghcr.io/c/d:2'],
    });
  });
});
