import { defineConfig } from 'vitest/config';
import SlowestFirstSequencer from './test/support/slowest-first-sequencer';

export default defineConfig({
  test: {
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    // The integration project (group 0) runs before the others (group 1): vitest frees
    // a worker's VITEST_POOL_ID only after the next group has started, so a group after
    // another could hand a second file the number of a stream still in use.
    sequence: { sequencer: SlowestFirstSequencer, groupOrder: 1 },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: ['test/unit/**/*.isolated.test.ts'],
          // Unit files share one module registry: importing the domain and the SDK once,
          // not once per file, was most of the project's time (42 files: 151 s → 34 s).
          isolate: false,
        },
      },
      // Files that replace a module (vi.mock) get a registry of their own.
      { extends: true, test: { name: 'unit-isolated', include: ['test/unit/**/*.isolated.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          testTimeout: 240_000,
          // One worker keeps its modules across the infra files, so CDK's asset cache
          // bundles each function once per run, not once per file that synthesizes.
          isolate: false,
          maxWorkers: 1,
        },
      },
      // The report page in headless Chromium (the @sparticuz/chromium package's, driven by puppeteer-core).
      {
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], testTimeout: 60_000 },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/emulators-global-setup.ts'],
          setupFiles: ['test/support/moto-reset.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two streams, each with its own emulators (the global setup starts one
          // set per worker): within a stream files run one at a time, so table
          // scans, moto's reset and the EC2 fleet belong to one file at a time.
          // One stream's calls run in a chain (node, then moto or DynamoDB Local),
          // so on 2 cores a second stream can use what the first leaves idle
          // (BENCHMARKS.md, "Test suite time"). Its own group, the first:
          // vitest runs a group's files with one worker count.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
    ],
  },
});
