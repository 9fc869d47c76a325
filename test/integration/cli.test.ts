import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { publishGpuSamples } from '../../local/runtime/gpu-telemetry-publisher';
import { type LocalStack, startLocalStack, writeLocalManifest } from '../../local/stack';
import { buildCli } from '../../scripts/build-cli';
import { runCommand } from '../support/cli';

let stack: LocalStack;
let home: string;
/** The bundle as `npm run build:cli` writes it, built from the sources under test. */
let bin: string;

beforeAll(async () => {
  ({ bin } = await buildCli(mkdtempSync(join(tmpdir(), 'gpurent-cli-bundle-'))));
  stack = await startLocalStack({
    port: 0,
    endpoints: inject('endpoints'),
    timers: false,
    prefix: `cli${Date.now()}`,
  });
  home = mkdtempSync(join(tmpdir(), 'gpurent-cli-'));
  await writeLocalManifest(join(home, '.gpurent/local.json'), stack);
});

afterAll(() => stack?.stop());

/** Runs the installed command as a user would, in `home`, with its own config dir. */
const gpurent = (args: string[], configDir = join(home, 'config')) =>
  runCommand('node', [bin, ...args], {
    cwd: home,
    env: { ...process.env, GPURENT_CONFIG_DIR: configDir, INIT_CWD: home },
  });

const json = (result: { stdout: string }) => JSON.parse(result.stdout);
const today = () => new Date().toISOString().slice(0, 10);
/** Well-formed, but no lease of this tenant. */
const UNKNOWN_LEASE = `lease_${'0'.repeat(26)}`;
/** One line, no stack trace. */
const oneLine = (stderr: string) => {
  expect(stderr.trim().split('\n')).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
  return stderr.trim();
};

describe('gpurent CLI against the local stack', () => {
  it('login --local saves the API URL and token in the config dir, readable by the user only', async () => {
    const result = await gpurent(['login', '--local', '--json']);
    expect(result.code).toBe(0);
    const file = json(result).configFile;
    expect(json(result).apiUrl).toBe(stack.apiUrl);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ apiUrl: stack.apiUrl, token: stack.token });
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  let leaseId: string;

  it('lease create --wait shows progress until RUNNING and prints the lease', async () => {
    const result = await gpurent([
      'lease',
      'create',
      '--workload',
      'training',
      '--gpus',
      '1',
      '--project',
      'cli',
      '--duration',
      '60',
      '--gpu-model',
      'A10G',
      '--max-hourly-price',
      '5',
      '--data-region',
      'us-east-1',
      '--data-gb',
      '10',
      '--wait',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const lease = json(result);
    expect(lease).toMatchObject({ status: 'RUNNING', workload: 'training', gpus: 1, project: 'cli' });
    // Placed by the flags: an A10G type (the g5 family), near its data, under the price ceiling.
    expect(lease.instanceType).toMatch(/^g5\./);
    expect(lease.placement).toMatchObject({ region: 'us-east-1' });
    expect(lease.placement.hourlyUsd).toBeLessThanOrEqual(5);
    expect(lease.expiresAt).toEqual(expect.any(String));
    expect(result.stderr).toMatch(/lease_\w+: RUNNING after \d+s/);
    leaseId = lease.leaseId;
  });

  it('lease ls and lease show: a table by default, the API objects with --json', async () => {
    const listed = await gpurent(['lease', 'ls', '--json']);
    expect(listed.code).toBe(0);
    expect(json(listed).leases.map((l: { leaseId: string }) => l.leaseId)).toContain(leaseId);
    const table = await gpurent(['lease', 'ls']);
    expect(table.stdout.split('\n')[0]).toMatch(/^LEASE\s+STATUS\s+WORKLOAD\s+GPUS/);
    expect(table.stdout).toContain(leaseId);

    const shown = await gpurent(['lease', 'show', leaseId, '--json']);
    expect(json(shown)).toMatchObject({ leaseId, status: 'RUNNING', instances: [expect.any(Object)] });
    const human = await gpurent(['lease', 'show', leaseId]);
    expect(human.stdout).toMatch(/status:\s+RUNNING/);
    expect(human.stdout).toMatch(/why:\s+training; .*g5\./);
    expect(human.stdout).toMatch(/INSTANCE\s+TYPE\s+MODE/);
  });

  it('metrics: avg / p95 / max and health of each GPU, as a table and as JSON', async () => {
    const instanceId = json(await gpurent(['lease', 'show', leaseId, '--json'])).instances[0].instanceId;
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    // The CloudWatch agent's datapoints for the last five minutes: 40, 50, 60, 70, 80 % busy.
    await publishGpuSamples(
      new CloudWatchClient({}),
      [40, 50, 60, 70, 80].map((utilizationPercent, i) => ({
        instanceId,
        gpuIndex: 0,
        atMs: minute - (5 - i) * 60_000 + 5_000,
        utilizationPercent,
        memoryUsedMiB: 12_000,
        memoryTotalMiB: 24_000,
        temperatureC: 60,
        powerW: 150,
      })),
    );
    const result = await gpurent(['metrics', leaseId, '--json']);
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({
      leaseId,
      period: 60,
      instances: [
        {
          instanceId,
          gpus: [
            {
              index: 0,
              utilization: { avg: 60, p95: 80, max: 80 },
              memoryUsed: { max: 50 },
              health: { status: 'ok' },
            },
          ],
        },
      ],
    });
    const human = await gpurent(['metrics', leaseId, '--period', '60']);
    expect(human.stdout).toMatch(/^INSTANCE\s+GPU\s+HEALTH\s+UTILIZATION %\s+MEMORY USED %/m);
    expect(human.stdout).toMatch(new RegExp(`^${instanceId}\\s+0\\s+ok.*60 / 80 / 80\\s+50 / 50 / 50`, 'm'));
  });

  it('group put, ls, show and rm: a spec file with flags on top', async () => {
    writeFileSync(
      join(home, 'web.json'),
      JSON.stringify({
        instanceType: 'g5.xlarge',
        min: 1,
        max: 3,
        scaleOut: {
          conditions: [{ metric: 'gpuUtilization', comparison: '>', threshold: 70, sustainedFor: 2 }],
          cooldownSeconds: 120,
        },
      }),
    );
    const put = await gpurent(['group', 'put', 'web', '--spec', 'web.json', '--max', '4', '--json']);
    expect(put.code).toBe(0);
    expect(json(put)).toMatchObject({
      name: 'web',
      status: 'ACTIVE',
      desired: 1,
      spec: { instanceType: 'g5.xlarge', min: 1, max: 4, scaleOut: { cooldownSeconds: 120 } },
    });
    const replaced = await gpurent(['group', 'put', 'web', '--spec', 'web.json']);
    expect(replaced.stdout).toMatch(/^Updated group web\n/);

    expect(json(await gpurent(['group', 'ls', '--json'])).groups).toEqual([
      expect.objectContaining({ name: 'web', instanceType: 'g5.xlarge', min: 1, max: 3, desired: 1 }),
    ]);
    const listed = await gpurent(['group', 'ls']);
    expect(listed.stdout).toMatch(/^GROUP\s+STATUS\s+TYPE\s+MIN\s+MAX\s+DESIRED/);
    expect(listed.stdout).toMatch(/^web\s+ACTIVE\s+g5\.xlarge\s+1\s+3\s+1/m);
    expect(json(await gpurent(['group', 'show', 'web', '--json']))).toMatchObject({ name: 'web', size: 0 });
    expect((await gpurent(['group', 'show', 'web'])).stdout).toMatch(/bounds:\s+1-3 GPUs/);

    const removed = await gpurent(['group', 'rm', 'web', '--json']);
    expect(removed.code).toBe(0);
    expect(json(removed)).toEqual({ name: 'web', status: 'DELETED', released: [] });
    const again = await gpurent(['group', 'rm', 'web']);
    expect(again.code).toBe(1);
    expect(oneLine(again.stderr)).toMatch(/^error: SCALING_GROUP_NOT_FOUND: /);
  });

  it('audit: the month as JSON or a summary and a table, or the report page with --html', async () => {
    const month = new Date().toISOString().slice(0, 7);
    const result = await gpurent(['audit', month, '--json']);
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ month, complete: false, byMode: expect.any(Array) });
    const human = await gpurent(['audit', month]);
    expect(human.stdout).toMatch(new RegExp(`^month:\\s+${month} \\(to date\\)`));
    expect(human.stdout).toMatch(/^MODE\s+SECONDS\s+COST USD\s+SHARE %/m);

    const page = await gpurent(['audit', month, '--html', 'report.html', '--json']);
    expect(page.code).toBe(0);
    const file = join(home, 'report.html');
    expect(json(page)).toEqual({ month, file, bytes: statSync(file).size });
    expect(readFileSync(file, 'utf8')).toMatch(/^<!doctype html>/i);
  });

  it('profile: demand per day', async () => {
    const result = await gpurent(['profile', '--json']);
    expect(result.code).toBe(0);
    // The metrics test published 40..80 % for the lease's GPU: the GPU-minute average is 60 %.
    expect(json(result).gpuUtilization).toMatchObject({ percent: 60 });
    expect(json(result).days.at(-1)).toMatchObject({ day: today(), peakConcurrentGpus: 1 });
    expect((await gpurent(['profile'])).stdout).toMatch(
      /^DAY\s+GPU-HOURS\s+AVG GPUS\s+PEAK GPUS\s+GPU UTIL/m,
    );
  });

  it('usage: groups and a total', async () => {
    const result = await gpurent(['usage', '--group-by', 'project', '--json']);
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ groupBy: 'project', groups: expect.any(Array) });
    // The API's groupings, by day included (the old untyped command tree refused it).
    const byDay = await gpurent(['usage', '--group-by', 'day', '--json']);
    expect(byDay.code).toBe(0);
    expect(json(byDay)).toMatchObject({ groupBy: 'day', granularity: 'day' });
    expect((await gpurent(['usage'])).stdout).toMatch(/^MODE\s+INSTANCE-SECONDS\s+COST USD/m);
  });

  it('budget set, ls, show and rm', async () => {
    const set = await gpurent([
      'budget',
      'set',
      'cli-month',
      '--limit',
      '25',
      '--thresholds',
      '50,100',
      '--json',
    ]);
    expect(set.code).toBe(0);
    expect(json(set)).toMatchObject({ name: 'cli-month', monthlyLimitUsd: 25, thresholds: [50, 100] });
    expect(
      json(await gpurent(['budget', 'ls', '--json'])).budgets.map((b: { name: string }) => b.name),
    ).toEqual(['cli-month']);
    expect((await gpurent(['budget', 'ls'])).stdout).toMatch(/^BUDGET\s+PROJECT\s+LIMIT USD/);
    expect((await gpurent(['budget', 'show', 'cli-month'])).stdout).toMatch(/limit:\s+\$25\/month/);
    const removed = await gpurent(['budget', 'rm', 'cli-month', '--json']);
    expect(json(removed)).toEqual({ name: 'cli-month', deleted: true });
    const again = await gpurent(['budget', 'rm', 'cli-month']);
    expect(again.code).toBe(1);
    expect(oneLine(again.stderr)).toMatch(/^error: BUDGET_NOT_FOUND: /);
  });

  it('lease rm releases the lease', async () => {
    const result = await gpurent(['lease', 'rm', leaseId, '--json']);
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ leaseId, status: 'RELEASING' });
  });

  it('usage errors exit 2 with one line: unknown command or flag, malformed id, missing login, bad numbers', async () => {
    const cases: [string[], RegExp, string?][] = [
      [['lease', 'teleport'], /unknown command 'teleport'/],
      [['lease', 'ls', '--colour'], /unknown option '--colour'/],
      [['lease', 'show', 'lease_nope'], /"lease_nope" is not a lease id/],
      [['lease', 'create', '--workload', 'training', '--gpus', 'two'], /--gpus must be a whole number/],
      [
        ['lease', 'create', '--workload', 'mining', '--gpus', '1'],
        /Allowed choices are training, inference, batch/,
      ],
      [['lease', 'ls'], /not logged in: run `gpurent login/, join(home, 'nobody')],
      [['group', 'put', 'web', '--min', 'two'], /--min must be a whole number of at least 0/],
      [['group', 'put', 'web', '--spec', 'missing.json'], /--spec: cannot read .*missing\.json/],
      [['group', 'show'], /missing required argument 'name'/],
      [['metrics', 'lease_nope'], /"lease_nope" is not a lease id/],
      [['metrics', UNKNOWN_LEASE, '--period', '7'], /Allowed choices are 60, 300, 3600/],
      [['audit', '2026-13'], /"2026-13" is not a month: give yyyy-mm/],
      [
        ['lease', 'create', '--workload', 'training', '--gpus', '1', '--max-hourly-price', 'cheap'],
        /--max-hourly-price must be a number of at least 0, such as 2.5, not "cheap"/,
      ],
    ];
    for (const [args, message, configDir] of cases) {
      const result = await gpurent(args, configDir);
      expect(result.code, args.join(' ')).toBe(2);
      expect(oneLine(result.stderr)).toMatch(message);
    }
  });

  it('refusals and failures exit 1 with one line: an expiry out of range, an unreachable API', async () => {
    const refused = await gpurent([
      'lease',
      'create',
      '--workload',
      'batch',
      '--gpus',
      '1',
      '--duration',
      '50000',
    ]);
    expect(refused.code).toBe(1);
    expect(oneLine(refused.stderr)).toMatch(/^error: VALIDATION_FAILED: .*durationMinutes/);

    const refusals: [string[], RegExp][] = [
      [
        ['group', 'put', 'Web_1', '--instance-type', 'g5.xlarge', '--min', '1', '--max', '2'],
        /^error: INVALID_SCALING_GROUP_NAME: /,
      ],
      [
        ['group', 'put', 'big', '--instance-type', 'p5.48xlarge', '--min', '1', '--max', '2'],
        /^error: UNSUPPORTED_INSTANCE_TYPE: /,
      ],
      [['metrics', UNKNOWN_LEASE], /^error: LEASE_NOT_FOUND: /],
      [['audit', '2999-01'], /^error: MONTH_IN_FUTURE: /],
      [
        ['lease', 'create', '--workload', 'training', '--gpus', '1', '--gpu-model', 'Z9'],
        /^error: UNKNOWN_GPU_MODEL: /,
      ],
      [
        ['lease', 'create', '--workload', 'training', '--gpus', '1', '--regions', 'us-east-1,ap-south-2'],
        /^error: UNKNOWN_REGION: ap-south-2 is not a GPU region/,
      ],
    ];
    for (const [args, message] of refusals) {
      const result = await gpurent(args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(oneLine(result.stderr)).toMatch(message);
    }

    const elsewhere = join(home, 'unreachable');
    expect((await gpurent(['login', '--api', 'http://127.0.0.1:9', '--token', 't'], elsewhere)).code).toBe(0);
    const unreachable = await gpurent(['lease', 'ls'], elsewhere);
    expect(unreachable.code).toBe(1);
    expect(oneLine(unreachable.stderr)).toMatch(/cannot reach the gpurent API at http:\/\/127.0.0.1:9/);
  });

  it('--help on every command exits 0; simulate still works', async () => {
    for (const args of [
      [],
      ['login'],
      ['lease'],
      ['lease', 'create'],
      ['lease', 'ls'],
      ['usage'],
      ['budget', 'set'],
      ['group'],
      ['group', 'put'],
      ['group', 'ls'],
      ['metrics'],
      ['audit'],
      ['profile'],
    ]) {
      const result = await gpurent([...args, '--help']);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout).toMatch(/^Usage: gpurent/);
    }
    const simulate = await gpurent(['simulate', '--help']);
    expect(simulate.code).toBe(0);
    expect(simulate.stdout).toMatch(/Usage: gpurent simulate --trace FILE/);
  });
});
