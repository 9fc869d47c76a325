import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { LAMBDA_NODE_OPTIONS } from '../../infra/constructs/lambda-bundling';
import { DEFAULT_DATA_DIR } from '../../shared/adapters/reference-data';
import {
  BUCKETS,
  EVENT_BUS,
  LEASE_EXPIRY,
  LEASE_MACHINE_ROLE,
  LOG_GROUPS,
  QUEUES,
  SESSION_ROLE,
  TABLES,
  TOPICS,
} from '../../shared/resources';
import { median } from './stats';

/** What Lambda sets, so Powertools and the SDK take the same paths at load as in the cloud. */
const LAMBDA_LIKE_ENV = {
  AWS_REGION: 'us-east-1',
  AWS_LAMBDA_FUNCTION_NAME: 'gpurent-bench',
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
  // As the construct sets it: Node then reads the bundle's source map at load.
  NODE_OPTIONS: LAMBDA_NODE_OPTIONS,
  POWERTOOLS_SERVICE_NAME: 'gpurent',
  POWERTOOLS_METRICS_NAMESPACE: 'gpurent',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

const LOAD_TIMEOUT_MS = 30_000;
/** The `Name: message` line Node prints for an uncaught error (after the offending source line). */
const ERROR_LINE = /^(?:\S+ )?\[?\w*Error\]?: .*$/m;

export type LoadEnvironment = Readonly<Record<string, string>>;

export interface LoadFailure {
  readonly error: string;
}

/**
 * Imports the entry, then each further module in turn, as a first request's
 * `import()`s do (the ESM input of `node -e` allows top-level await).
 */
const IMPORT_IN_TURN =
  "import { pathToFileURL } from 'node:url'; for (const path of JSON.parse(process.argv[1])) await import(pathToFileURL(path).href);";

function load(bundlePath: string, env: LoadEnvironment, thenImport?: readonly string[]) {
  const args =
    thenImport === undefined
      ? [bundlePath]
      : ['--input-type=module', '-e', IMPORT_IN_TURN, JSON.stringify([bundlePath, ...thenImport])];
  const start = performance.now();
  const result = spawnSync(process.execPath, args, {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    timeout: LOAD_TIMEOUT_MS,
    // An uncaught error prints the offending source line, and a minified bundle is one long line.
    maxBuffer: 64 * 2 ** 20,
  });
  return { ms: performance.now() - start, status: result.status, stderr: result.stderr };
}

/**
 * Every variable a gpurent function reads at load (the resources of
 * shared/resources.ts plus the fleet's launch settings), with placeholder
 * values: nothing connects while a module loads. The audit checks at load that
 * its spot traces exist (the stack bundles them), so it gets the team's copy.
 */
export const FUNCTION_ENV: LoadEnvironment = Object.fromEntries([
  ...[
    ...Object.values(TABLES),
    ...Object.values(QUEUES),
    ...Object.values(TOPICS),
    ...Object.values(LOG_GROUPS),
    ...Object.values(BUCKETS),
    EVENT_BUS,
  ].map((resource) => [resource.envVar, 'bench-placeholder']),
  ...Object.values(QUEUES).flatMap((queue) =>
    'deadLetterEnvVar' in queue && queue.deadLetterEnvVar
      ? [[queue.deadLetterEnvVar, 'bench-placeholder']]
      : [],
  ),
  ...[SESSION_ROLE, LEASE_MACHINE_ROLE].map((role) => [
    role.envVar,
    `arn:aws:iam::000000000000:role/bench-${role.id}`,
  ]),
  ['LAUNCH_TEMPLATE_ID', 'lt-bench-placeholder'],
  ['SUBNET_IDS', 'subnet-bench-placeholder'],
  [LEASE_EXPIRY.group.envVar, 'bench-placeholder'],
  [LEASE_EXPIRY.queueArnEnvVar, 'arn:aws:sqs:us-east-1:000000000000:bench-placeholder'],
  [LEASE_EXPIRY.roleArnEnvVar, 'arn:aws:iam::000000000000:role/bench-placeholder'],
  ['FLEET_NAME', 'fleet-bench-placeholder'],
  ['SPOT_DATA_DIR', DEFAULT_DATA_DIR],
]);

/** The Lambda-like environment a bundle loads in, or why it does not load. */
export function environmentFor(bundlePath: string): LoadEnvironment | LoadFailure {
  const env = { ...LAMBDA_LIKE_ENV, ...FUNCTION_ENV };
  const attempt = load(bundlePath, env);
  if (attempt.status === 0) return env;
  return { error: firstErrorLine(attempt.stderr) ?? `exit status ${attempt.status}` };
}

function firstErrorLine(stderr: string): string | undefined {
  return ERROR_LINE.exec(stderr)?.[0].slice(0, 300);
}

export interface ColdLoadTarget {
  readonly name: string;
  readonly bundlePath: string;
  readonly env: LoadEnvironment;
  /**
   * Given, the process imports the bundle and then these modules (chunks a
   * first request loads) from a `node -e` script, not `node <bundle>`; compare
   * such targets only with targets measured the same way.
   */
  readonly thenImport?: readonly string[];
}

/**
 * Median wall time of `node <bundle>` in a fresh process, `runs` times per
 * target. Targets take turns run by run, so a burst of load on the shared
 * machine hits them all alike rather than skewing one.
 */
export function medianColdLoadMs(targets: readonly ColdLoadTarget[], runs: number): Map<string, number> {
  const samples = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (let i = 0; i < runs; i++) {
    for (const target of targets) {
      const attempt = load(target.bundlePath, target.env, target.thenImport);
      if (attempt.status !== 0) {
        throw new Error(`${target.name} stopped loading on run ${i + 1}: ${firstErrorLine(attempt.stderr)}`);
      }
      samples.get(target.name)?.push(attempt.ms);
    }
  }
  return new Map([...samples].map(([name, ms]) => [name, median(ms)]));
}
