import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentFor, medianColdLoadMs } from '../../../bench/support/cold-load';

const dir = mkdtempSync(join(tmpdir(), 'gpurent-cold-load-'));

function script(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

/** Fails at load the way shared/config.ts does unless the function's variables are set. */
const CONFIGURED = script(
  'configured.mjs',
  `class ConfigError extends Error {
    constructor(problems) { super('Invalid configuration: ' + problems.join('; ')); this.name = 'ConfigError'; }
  }
  const missing = ['LEASES_TABLE_NAME', 'LEASE_COMMANDS_QUEUE_URL', 'FLEET_NAME'].filter((name) => !process.env[name]);
  if (missing.length > 0) throw new ConfigError(missing.map((name) => name + ': must be set'));
  export const handler = async () => ({});`,
);

describe('environmentFor', () => {
  it('gives a module every variable the functions read, as placeholders', () => {
    const env = environmentFor(CONFIGURED);

    expect(env).toMatchObject({
      AWS_REGION: 'us-east-1',
      LEASES_TABLE_NAME: 'bench-placeholder',
      LEASE_COMMANDS_QUEUE_URL: 'bench-placeholder',
      FLEET_NAME: 'fleet-bench-placeholder',
    });
  });

  it('reports any other failure at load by its error line', () => {
    const broken = script('broken.mjs', "throw new TypeError('no GPUs here');");

    expect(environmentFor(broken)).toEqual({ error: 'TypeError: no GPUs here' });
  });
});

describe('medianColdLoadMs', () => {
  it('times every target in fresh processes', () => {
    const env = environmentFor(CONFIGURED);
    if ('error' in env) throw new Error(env.error);

    const medians = medianColdLoadMs([{ name: 'configured', bundlePath: CONFIGURED, env }], 3);

    expect([...medians.keys()]).toEqual(['configured']);
    expect(medians.get('configured')).toBeGreaterThan(0);
  });

  it('fails loudly when a target stops loading', () => {
    expect(() => medianColdLoadMs([{ name: 'configured', bundlePath: CONFIGURED, env: {} }], 1)).toThrow(
      /configured stopped loading on run 1: ConfigError: Invalid configuration: LEASES_TABLE_NAME: must be set/,
    );
  });
});
