import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../infra/constructs/gpurent-function';
import { inlineConstantKeys, treeShakableEc2Client } from '../../../infra/constructs/tree-shakable-ec2';

const SCHEMAS = join('dist-es', 'schemas', 'schemas_0.js');

/** A schema graph as data: lazy references (`() => Shape$`) compared by their source text. */
const asData = (value: unknown) =>
  JSON.parse(JSON.stringify(value, (_key, v) => (typeof v === 'function' ? `fn:${v.toString()}` : v)));

describe('inlineConstantKeys', () => {
  it('writes string constants into computed keys and leaves every other key alone', () => {
    const source = [
      'const _xN = "xmlName";',
      'const n0 = 3;',
      'export var A$ = [3, { [_xN]: _B }, { [n0]: 1 }, { [_unknown]: 2 }];',
    ].join('\n');

    expect(inlineConstantKeys(source)).toBe(
      [
        'const _xN = "xmlName";',
        'const n0 = 3;',
        'export var A$ = [3, { "xmlName": _B }, { [n0]: 1 }, { [_unknown]: 2 }];',
      ].join('\n'),
    );
  });
});

/** Copies and imports the whole EC2 client twice (thousands of schemas): seconds on a loaded 2-core machine. */
const COPY_AND_IMPORT_TIMEOUT_MS = 60_000;

describe('treeShakableEc2Client', () => {
  it('exports the same EC2 schemas as the installed package', {
    timeout: COPY_AND_IMPORT_TIMEOUT_MS,
  }, async () => {
    const copy = treeShakableEc2Client(PROJECT_ROOT);
    const original = await import(
      pathToFileURL(join(PROJECT_ROOT, 'node_modules', '@aws-sdk', 'client-ec2', SCHEMAS)).href
    );
    const rewritten = await import(pathToFileURL(join(copy, SCHEMAS)).href);

    expect(Object.keys(rewritten).sort()).toEqual(Object.keys(original).sort());
    expect(Object.keys(original).length).toBeGreaterThan(1000);
    for (const name of [
      'RunInstancesRequest$',
      'DescribeInstancesResult$',
      'CreateLaunchTemplateVersionRequest$',
    ]) {
      expect(asData(rewritten[name])).toEqual(asData(original[name]));
    }
    expect(asData(Object.values(rewritten))).toEqual(asData(Object.values(original)));
  });
});
