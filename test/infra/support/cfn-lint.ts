import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CfnLintMatch {
  readonly Level: 'Error' | 'Warning' | 'Informational';
  readonly Message: string;
  readonly Rule: { readonly Id: string };
  readonly Location: { readonly Path?: (string | number)[] };
}

/**
 * W3005 ("dependency already enforced by a GetAtt") is how CDK writes every Lambda
 * function: an explicit DependsOn on its role next to the GetAtt. Harmless, not ours
 * to change; every other warning fails the tests.
 */
export const IGNORED_CHECKS = ['W3005'];

/** Runs cfn-lint on one synthesized template for its region; its findings and exit status. */
export function cfnLint(
  template: unknown,
  region: string,
): { matches: CfnLintMatch[]; status: number | null; stderr: string } {
  const workDir = mkdtempSync(join(tmpdir(), 'gpurent-cfn-lint-'));
  try {
    const templateFile = join(workDir, 'template.json');
    writeFileSync(templateFile, JSON.stringify(template, null, 1));
    const result = spawnSync(
      'cfn-lint',
      ['--format', 'json', '--regions', region, '--ignore-checks', ...IGNORED_CHECKS, '--', templateFile],
      { encoding: 'utf8', timeout: 180_000 },
    );
    if (result.error) {
      throw new Error(
        `Could not run cfn-lint (pip install cfn-lint puts it on PATH): ${result.error.message}`,
      );
    }
    return {
      matches: JSON.parse(String(result.stdout || '[]')) as CfnLintMatch[],
      status: result.status,
      stderr: String(result.stderr),
    };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

export const renderMatch = (match: CfnLintMatch) =>
  `${match.Rule.Id} ${match.Message} at ${(match.Location.Path ?? []).join('/')}`;
