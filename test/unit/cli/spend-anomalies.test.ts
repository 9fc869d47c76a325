import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../../../cli/common';
import { createProgram } from '../../../cli/program';
import { anomaliesSetBody, settingsTable } from '../../../cli/spend-anomalies';

afterEach(() => {
  vi.unstubAllEnvs();
});

const io: CliIo = { out: () => {}, progress: () => {}, cwd: '/', sleep: async () => {} };

describe('gpurent anomalies', () => {
  it('sends one scope: --project names it, --off turns it off, no --sensitivity leaves the default', () => {
    expect(anomaliesSetBody({ project: 'demo', off: true })).toEqual({
      project: 'demo',
      sensitivity: undefined,
      enabled: false,
    });
    expect(anomaliesSetBody({ sensitivity: 'high' })).toEqual({
      project: undefined,
      sensitivity: 'high',
      enabled: true,
    });
  });

  it("shows the tenant's row, then each project's own", () => {
    const lines = settingsTable({
      tenant: { sensitivity: 'medium', enabled: true },
      projects: { demo: { sensitivity: 'low', enabled: false } },
    })
      .trim()
      .split('\n')
      .map((line) => line.split(/\s{2,}/));
    expect(lines).toEqual([
      ['SCOPE', 'ALERTS', 'SENSITIVITY'],
      ['(tenant)', 'on', 'medium'],
      ['project demo', 'off', 'low'],
    ]);
  });

  it('refuses an unknown sensitivity before any request, and then needs a session', async () => {
    vi.stubEnv('GPURENT_CONFIG_DIR', await mkdtemp(join(tmpdir(), 'gpurent-anomalies-cli-')));
    await expect(
      createProgram(io).parseAsync(['anomalies', 'set', '--sensitivity', 'extreme'], { from: 'user' }),
    ).rejects.toThrow(/argument 'extreme' is invalid\. Allowed choices are low, medium, high/);
    await expect(
      createProgram(io).parseAsync(['anomalies', 'set', '--project', 'demo', '--off'], { from: 'user' }),
    ).rejects.toThrow(/^not logged in/);
  });
});
