import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNTH_TIMEOUT_MS, synthesizeGpurent } from './support/synth';

interface CfnLintMatch {
  readonly Level: 'Error' | 'Warning' | 'Informational';
  readonly Message: string;
  readonly Rule: { readonly Id: string };
  readonly Location: { readonly Path?: (string | number)[] };
}

/**
 * W3005 ("dependency already enforced by a GetAtt") is how CDK writes every Lambda
 * function: an explicit DependsOn on its role next to the GetAtt. Harmless, not ours
 * to change; every other warning fails the test.
 */
const IGNORED_CHECKS = ['W3005'];

let workDir: string;
let result: ReturnType<typeof spawnSync>;
let matches: CfnLintMatch[];

beforeAll(() => {
  const { template } = synthesizeGpurent();
  workDir = mkdtempSync(join(tmpdir(), 'gpurent-cfn-lint-'));
  const templateFile = join(workDir, 'Gpurent.template.json');
  writeFileSync(templateFile, JSON.stringify(template().toJSON(), null, 1));
  result = spawnSync(
    'cfn-lint',
    ['--format', 'json', '--regions', 'us-east-1', '--ignore-checks', ...IGNORED_CHECKS, '--', templateFile],
    { encoding: 'utf8', timeout: 180_000 },
  );
  if (result.error) {
    throw new Error(`Could not run cfn-lint (pip install cfn-lint puts it on PATH): ${result.error.message}`);
  }
  matches = JSON.parse(String(result.stdout || '[]')) as CfnLintMatch[];
}, SYNTH_TIMEOUT_MS);

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const render = (match: CfnLintMatch) =>
  `${match.Rule.Id} ${match.Message} at ${(match.Location.Path ?? []).join('/')}`;

describe('cfn-lint on the synthesized template', () => {
  it('reports no errors', () => {
    expect(matches.filter((match) => match.Level === 'Error').map(render)).toEqual([]);
  });

  it('reports nothing else either, and exits 0', () => {
    expect(matches.map(render)).toEqual([]);
    expect(result.status, String(result.stderr)).toBe(0);
  });
});
