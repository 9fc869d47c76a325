import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCli, CLI_BUNDLE } from '../../../scripts/build-cli';

/** `node_modules/zod/v4/core/core.js` → `zod`; the project's own files → undefined. */
const packageOf = (input: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];

let outputs: { file: string; inputs: string[] }[];

beforeAll(async () => {
  const { metafile } = await buildCli(mkdtempSync(join(tmpdir(), 'gpurent-cli-bundle-')));
  outputs = Object.entries(metafile.outputs).map(([file, output]) => ({
    file: basename(file),
    inputs: Object.keys(output.inputs),
  }));
});

describe('the CLI bundle', () => {
  it('carries commander, zod for simulate and yaml for run task.yaml: no AWS SDK, no tsx, nothing else from node_modules', () => {
    const packages = new Set(outputs.flatMap((o) => o.inputs.map(packageOf)).filter(Boolean));
    expect([...packages].sort()).toEqual(['commander', 'yaml', 'zod']);
  });

  it('loads the planner only for simulate and yaml only for task files: the entry file holds the command tree', () => {
    const entry = outputs.find((o) => o.file === CLI_BUNDLE);
    expect(entry?.inputs).toContain('cli/program.ts');
    expect(
      entry?.inputs.some(
        (input) => input.startsWith('planner/') || packageOf(input) === 'zod' || packageOf(input) === 'yaml',
      ),
    ).toBe(false);
    const planner = outputs.find((o) => o.inputs.includes('planner/cli.ts'));
    expect(planner?.file).not.toBe(CLI_BUNDLE);
  });
});
