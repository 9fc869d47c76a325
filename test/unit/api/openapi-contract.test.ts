import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../functions/api/openapi';
import { CLIENT_TYPES_PATH, clientTypes } from '../../../scripts/openapi-client';

const run = promisify(execFile);
const root = new URL('../../../', import.meta.url).pathname;

interface SpectralResult {
  readonly code: string;
  readonly message: string;
  readonly path: readonly string[];
  /** 0 error, 1 warning, 2 information, 3 hint. */
  readonly severity: number;
}

describe('OpenAPI contract', () => {
  it("docs/openapi.json has no error or warning under Spectral's spectral:oas ruleset", async () => {
    // --fail-severity=hint: the exit code then says nothing the JSON does not; the results are asserted.
    const { stdout } = await run(
      'node_modules/.bin/spectral',
      ['lint', 'docs/openapi.json', '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet'],
      { cwd: root },
    ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    const problems = (JSON.parse(stdout) as SpectralResult[])
      .filter((result) => result.severity <= 1)
      .map((result) => `${result.code} at ${result.path.join('.')}: ${result.message}`);

    expect(problems).toEqual([]);
  }, 60_000);

  it('the typed client in test/generated is the one openapi-typescript generates (npm run openapi)', async () => {
    expect(readFileSync(CLIENT_TYPES_PATH, 'utf8')).toBe(await clientTypes(openApiDocument));
  }, 30_000);
});
