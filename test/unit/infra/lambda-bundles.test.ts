import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleHandler, functionHandlers, type LambdaBundle } from '../../../bench/support/lambda-bundle';

/*
 * Cold starts (issue #10): classic zod is about 440 KiB of a bundle, its
 * chained methods defeat tree shaking; Lambda code imports zod through
 * shared/zod.ts (zod/mini). Each function is bundled as the CDK construct does;
 * the SDK stays external here only to keep the test quick (which modules a
 * bundle holds does not depend on it).
 */
const CLASSIC_ZOD = /node_modules\/zod\/v4\/classic\//;
/*
 * planner/ is the simulator's CLI and its trace readers (the Alibaba pod list,
 * the usage-export CSV, the Azure requests trace, under planner/trace/): no
 * function needs any of it. The audit's replay is shared/planning/.
 */
const PLANNER = /^planner\//;
const REPLAY = 'shared/planning/month-recommendation.ts';
/** The functions that serve the monthly audit, and so replay a month. */
const REPLAYING = ['api', 'audit'];
const out = mkdtempSync(join(tmpdir(), 'gpurent-bundles-'));

describe('Lambda bundles', () => {
  const handlers = functionHandlers();
  const bundles = new Map<string, Promise<LambdaBundle>>();
  const bundleOf = (name: string, entry: string) => {
    let bundle = bundles.get(name);
    if (bundle === undefined) {
      bundle = bundleHandler({ entry }, join(out, name), ['@aws-sdk/*']);
      bundles.set(name, bundle);
    }
    return bundle;
  };

  it('exist for every function', () => {
    expect(handlers.map((h) => h.name)).toEqual(expect.arrayContaining(REPLAYING));
    expect(handlers.length).toBeGreaterThanOrEqual(8);
  });

  it.each(handlers)('$name holds no classic zod (import zod from shared/zod.ts)', async ({ name, entry }) => {
    const bundle = await bundleOf(name, entry);

    expect(bundle.inputs.length).toBeGreaterThan(0);
    expect(bundle.inputs.filter((input) => CLASSIC_ZOD.test(input))).toEqual([]);
  });

  it.each(handlers)('$name holds nothing of planner/, so no trace parser', async ({ name, entry }) => {
    const bundle = await bundleOf(name, entry);

    expect(bundle.inputs.filter((input) => PLANNER.test(input))).toEqual([]);
    // The replay itself still reaches the functions that need it, from shared/planning/.
    expect(bundle.inputs.includes(REPLAY)).toBe(REPLAYING.includes(name));
  });
});
