import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleHandler, functionHandlers } from '../../../bench/support/lambda-bundle';

/*
 * Cold starts (issue #10): classic zod is about 440 KiB of a bundle, its
 * chained methods defeat tree shaking; Lambda code imports zod through
 * shared/zod.ts (zod/mini). Each function is bundled as the CDK construct does;
 * the SDK stays external here only to keep the test quick (which zod a module
 * imports does not depend on it).
 */
const CLASSIC_ZOD = /node_modules\/zod\/v4\/classic\//;
const out = mkdtempSync(join(tmpdir(), 'gpurent-bundles-'));

describe('Lambda bundles', () => {
  const handlers = functionHandlers();

  it('exist for every function', () => {
    expect(handlers.map((h) => h.name)).toContain('api');
    expect(handlers.length).toBeGreaterThanOrEqual(8);
  });

  it.each(handlers)('$name holds no classic zod (import zod from shared/zod.ts)', async ({ name, entry }) => {
    const bundle = await bundleHandler({ entry }, join(out, name), ['@aws-sdk/*']);

    expect(bundle.inputs.length).toBeGreaterThan(0);
    expect(bundle.inputs.filter((input) => CLASSIC_ZOD.test(input))).toEqual([]);
  });
});
