import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishGpuSamples } from '../../local/runtime/gpu-telemetry-publisher';
import { type LocalStack, startLocalStack, writeLocalManifest } from '../../local/stack';
import { buildCli } from '../../scripts/build-cli';
import { DEFAULT_DATA_DIR } from '../../shared/adapters/reference-data';
import { BILLING_DIMENSIONS } from '../../shared/domain/spend';
import { runCommand } from '../support/cli';
import { emulatorEndpoints } from '../support/emulators';

let stack: LocalStack;
let home: string;
/** The bundle as `npm run build:cli` writes it, built from the sources under test. */
let bin: string;

beforeAll(async () => {
  ({ bin } = await buildCli(mkdtempSync(join(tmpdir(), 'gpurent-cli-bundle-'))));
  stack = await startLocalStack({
    port: 0,
    endpoints: emulatorEndpoints(),
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

/** Runs the command until its stderr matches `seen`, then sends it SIGINT, as Ctrl-C does. */
const interruptOnceSeen = (args: string[], seen: RegExp, configDir: string) =>
  new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn('node', [bin, ...args], {
      cwd: home,
      env: { ...process.env, GPURENT_CONFIG_DIR: configDir, INIT_CWD: home },
    });
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (!sent && seen.test(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    child.on('close', (code) => resolve({ code, stderr }));
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
    const shown = json(await gpurent(['lease', 'show', leaseId, '--json']));
    const { instanceId } = shown.instances[0];
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    // The CloudWatch agent's datapoints for the last five minutes: 40, 50, 60, 70, 80 % busy.
    await publishGpuSamples(
      new CloudWatchClient({}),
      [40, 50, 60, 70, 80].map((utilizationPercent, i) => ({
        tenantId: shown.tenantId,
        leaseId,
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

  it('group set changes the fields given and keeps the rest of the spec', async () => {
    const put = await gpurent(['group', 'put', 'api', '--spec', 'web.json', '--desired', '2', '--json']);
    expect(put.code).toBe(0);
    const set = await gpurent(['group', 'set', 'api', '--max', '2', '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(json(set)).toMatchObject({
      desired: 2,
      spec: { instanceType: 'g5.xlarge', min: 1, max: 2, scaleOut: { cooldownSeconds: 120 } },
    });
    expect((await gpurent(['group', 'set', 'api', '--min', '2'])).stdout).toMatch(/bounds:\s+2-2 GPUs/);
    const missing = await gpurent(['group', 'set', 'nope', '--max', '2']);
    expect(missing.code).toBe(1);
    expect(oneLine(missing.stderr)).toMatch(/^error: SCALING_GROUP_NOT_FOUND: /);
    expect((await gpurent(['group', 'rm', 'api'])).code).toBe(0);
  });

  it('audit: the month as JSON or a summary and a table, or the report page with --html', async () => {
    const month = new Date().toISOString().slice(0, 7);
    const result = await gpurent(['audit', month, '--json']);
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ month, complete: false, byMode: expect.any(Array) });
    const human = await gpurent(['audit', month]);
    expect(human.stdout).toMatch(new RegExp(`^month:\\s+${month} \\(to date\\)`));
    expect(human.stdout).toMatch(/^MODE\s+SECONDS\s+COST USD\s+SHARE %/m);
    expect(human.stdout).toMatch(/^tasks:\s+[\d.]+ task-hours/m);
    expect(human.stdout).toMatch(
      /^queue:\s+\d+ leases, wait p50 [\d.]+ s, p95 [\d.]+ s \(0 timed out\); over quota 0 s/m,
    );

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
    const table = (await gpurent(['profile'])).stdout;
    expect(table).toMatch(/^DAY\s+GPU-HOURS\s+AVG GPUS\s+PEAK GPUS\s+GPU UTIL/m);
    expect(table).toMatch(
      /TASK-H\s+TASK WAIT P50 S\s+TASK WAIT P95 S\s+QUEUE P50 S\s+QUEUE P95 S\s+OVER QUOTA S\s+ACCT QUOTA GPU-H/,
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

  it('usage --group-by dimension: compute, storage and transfer add up to the total; other keys are refused', async () => {
    const result = await gpurent(['usage', '--group-by', 'dimension', '--json']);
    expect(result.code).toBe(0);
    const body = json(result) as {
      groupBy: string;
      costMicroUsd: number;
      groups: { key: string; costMicroUsd: number }[];
    };
    expect(body.groupBy).toBe('dimension');
    for (const group of body.groups) expect(BILLING_DIMENSIONS).toContain(group.key);
    expect(body.groups.reduce((sum, g) => sum + g.costMicroUsd, 0)).toBe(body.costMicroUsd);
    const refused = await gpurent(['usage', '--group-by', 'volume']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/dimension/);
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
    expect((await gpurent(['budget', 'show', 'cli-month'])).stdout).toMatch(/limit:\s+\$25\.00\/month/);
    const removed = await gpurent(['budget', 'rm', 'cli-month', '--json']);
    expect(json(removed)).toEqual({ name: 'cli-month', deleted: true });
    const again = await gpurent(['budget', 'rm', 'cli-month']);
    expect(again.code).toBe(1);
    expect(oneLine(again.stderr)).toMatch(/^error: BUDGET_NOT_FOUND: /);
  });

  it('shows money by the one rule for people: cents rounded half up, hourly prices to a hundredth of a cent', async () => {
    const lease = json(await gpurent(['lease', 'show', leaseId, '--json']));
    const human = (await gpurent(['lease', 'show', leaseId])).stdout;
    const cents = Math.floor((Math.round(lease.costUsd * 1e6) + 5_000) / 10_000) / 100;
    expect(human).toMatch(new RegExp(`^cost:\\s+\\$${cents.toFixed(2).replace('.', '\\.')}$`, 'm'));
    const hourly = Math.round(lease.placement.hourlyUsd * 1e4) / 1e4;
    const shown = /placed in:\s+\S+ at \$(\d+\.\d+)\/h/.exec(human)?.[1];
    expect(Number(shown)).toBe(hourly);
    expect(shown).toMatch(/^\d+\.\d{2,4}$/);
  });

  it('lease ls --limit: the next-page command keeps --limit', async () => {
    const second = await gpurent(['lease', 'create', '--workload', 'batch', '--gpus', '1', '--json']);
    expect(second.code).toBe(0);
    const page = await gpurent(['lease', 'ls', '--limit', '1']);
    const more = /^more: (gpurent lease ls .*)$/m.exec(page.stdout)?.[1];
    expect(more).toMatch(/^gpurent lease ls --limit 1 --cursor \S+$/);
    const next = await gpurent((more ?? '').split(' ').slice(1));
    expect(next.code).toBe(0);
    expect(next.stdout.split('\n').filter((line) => line.startsWith('lease_'))).toHaveLength(1);
    expect((await gpurent(['lease', 'rm', json(second).leaseId])).code).toBe(0);
  });

  it('--gpu-model in any letter case: a10g is the A10G', async () => {
    const result = await gpurent([
      'lease',
      'create',
      '--workload',
      'batch',
      '--gpus',
      '1',
      '--gpu-model',
      'a10g',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ gpuModel: 'A10G', instanceType: expect.stringMatching(/^g5\./) });
    expect((await gpurent(['lease', 'rm', json(result).leaseId])).code).toBe(0);
  });

  it('usage export: the CSV simulate reads, to stdout or --out FILE', async () => {
    const result = await gpurent(['usage', 'export']);
    expect(result.code).toBe(0);
    const [header, ...rows] = result.stdout.trim().split('\n');
    expect(header).toBe('lease_id,workload,mode,instance_type,gpus,started_at,ended_at,project');
    expect(rows.some((row) => row.startsWith(`${leaseId},training,`))).toBe(true);
    const saved = await gpurent(['usage', 'export', '--out', 'usage.csv']);
    expect(saved.code).toBe(0);
    expect(saved.stdout).toBe('');
    expect(readFileSync(join(home, 'usage.csv'), 'utf8')).toBe(result.stdout);
    const simulated = await gpurent([
      'simulate',
      '--trace',
      'usage.csv',
      '--json',
      '--data',
      DEFAULT_DATA_DIR,
    ]);
    expect(simulated.code, simulated.stderr).toBe(0);
    expect(JSON.parse(simulated.stdout)).toEqual(expect.any(Object));
  });

  it('--version prints the package version', async () => {
    const result = await gpurent(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });

  it('login checks the credentials: a wrong token or a stopped local stack is refused with what is wrong', async () => {
    const fresh = join(home, 'fresh-login');
    const wrongToken = await gpurent(['login', '--api', stack.apiUrl, '--token', 'abc'], fresh);
    expect(wrongToken.code).toBe(1);
    expect(oneLine(wrongToken.stderr)).toMatch(
      /^error: not logged in: the API at \S+ refused the token \(401 .*\): .*run `gpurent login` again$/,
    );
    expect(existsSync(join(fresh, 'config.json'))).toBe(false);

    const stopped = join(home, 'stopped');
    mkdirSync(join(stopped, '.gpurent'), { recursive: true });
    writeFileSync(
      join(stopped, '.gpurent/local.json'),
      JSON.stringify({ apiUrl: 'http://127.0.0.1:9', token: stack.token }),
    );
    const stale = await runCommand('node', [bin, 'login', '--local'], {
      cwd: stopped,
      env: { ...process.env, GPURENT_CONFIG_DIR: fresh, INIT_CWD: stopped },
    });
    expect(stale.code).toBe(1);
    expect(oneLine(stale.stderr)).toMatch(
      /the local stack of .*local\.json does not answer at http:\/\/127\.0\.0\.1:9: it has stopped/,
    );

    // From a directory below the checkout, or anywhere with --manifest / $GPURENT_LOCAL_MANIFEST.
    const below = join(home, 'src', 'deep');
    mkdirSync(below, { recursive: true });
    const fromBelow = await runCommand('node', [bin, 'login', '--local', '--json'], {
      cwd: below,
      env: { ...process.env, GPURENT_CONFIG_DIR: fresh, INIT_CWD: below },
    });
    expect(fromBelow.code, fromBelow.stderr).toBe(0);
    expect(json(fromBelow).apiUrl).toBe(stack.apiUrl);
    const named = await runCommand('node', [bin, 'login', '--local', '--json'], {
      cwd: tmpdir(),
      env: {
        ...process.env,
        GPURENT_CONFIG_DIR: fresh,
        INIT_CWD: tmpdir(),
        GPURENT_LOCAL_MANIFEST: join(home, '.gpurent/local.json'),
      },
    });
    expect(named.code, named.stderr).toBe(0);
    const flagged = await gpurent(['login', '--manifest', join(stopped, '.gpurent/local.json')], fresh);
    expect(flagged.code).toBe(1);
  });

  it('an API refusal is one short line: the details that repeat the message are not printed again', async () => {
    const result = await gpurent([
      'lease',
      'create',
      '--workload',
      'training',
      '--gpus',
      '1',
      '--instance-type',
      'x1.nope',
    ]);
    expect(result.code).toBe(1);
    const line = oneLine(result.stderr);
    expect(line).toMatch(
      /^error: UNSUPPORTED_INSTANCE_TYPE: instanceType x1\.nope is not a GPU type .*use one of: (\S+, ){5}… \(\d+ in all\)$/,
    );
    expect(line.length).toBeLessThan(300);
    expect(line.match(/is not a GPU type/g)).toHaveLength(1);
  });

  it('short of quota, leases wait in the queue by priority, and run shows its place instead of a silent wait', async () => {
    const admin = join(home, 'config-admin');
    const tenant = join(home, 'config-queued');
    expect((await gpurent(['login', '--api', stack.apiUrl, '--token', stack.adminToken], admin)).code).toBe(
      0,
    );
    const quota = ['admin', 'quota', 'set', 'cli-queued', '--max-gpus', '1', '--max-hourly-usd', '100'];
    expect((await gpurent(quota, admin)).code).toBe(0);
    expect((await gpurent(['login', '--local', '--tenant', 'cli-queued'], tenant)).code).toBe(0);
    const holding = await gpurent(
      ['lease', 'create', '--workload', 'batch', '--gpus', '1', '--wait'],
      tenant,
    );
    expect(holding.code).toBe(0);

    const urgent = await gpurent(
      'lease create --workload batch --gpus 1 --priority 900 --max-wait 30 --json'.split(' '),
      tenant,
    );
    expect(urgent.code).toBe(0);
    expect(json(urgent)).toMatchObject({ priority: 900, maxWaitMinutes: 30 });
    // PENDING until the worker finds the tenant at its quota.
    let shown = json(urgent);
    for (let tries = 0; shown.status === 'PENDING' && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      shown = json(await gpurent(['lease', 'show', shown.leaseId, '--json'], tenant));
    }
    expect(shown).toMatchObject({ status: 'QUEUED', queue: { reason: 'quota', position: 1 } });

    // Behind the urgent lease (priority 500 against 900): its place is on stderr until --timeout.
    const behind = await gpurent(['run', '--gpus', '1', '--timeout', '3', '--', 'echo', 'hi'], tenant);
    expect(behind.code).toBe(1);
    expect(behind.stderr).toMatch(/lease_\w+: QUEUED #2 \(quota\)/);
    expect(behind.stderr).toMatch(/is still QUEUED after \d+s \(it keeps going/);
    expect(behind.stderr).not.toMatch(/waiting for the task's output/);

    // A task file gives the GPUs and the rest, no --gpus needed; a flag given changes its field.
    writeFileSync(
      join(home, 'task.yaml'),
      'workload: training\ngpus: 1\nproject: from-file\npriority: 800\ntask:\n  command: echo hi\n',
    );
    const fromFile = await gpurent(['run', 'task.yaml', '--priority', '100', '--timeout', '2'], tenant);
    expect(fromFile.stderr).toMatch(/lease_\w+: QUEUED #3 \(quota\)/);
    const fileLease = json(
      await gpurent(['lease', 'show', fromFile.stderr.match(/lease_\w+/)?.[0] ?? '', '--json'], tenant),
    );
    expect(fileLease).toMatchObject({ workload: 'training', gpus: 1, project: 'from-file', priority: 100 });

    // Ctrl-C while it waits: it says the lease goes on and how to end it, exits 130, and the lease still waits.
    const interrupted = await interruptOnceSeen(
      ['run', '--gpus', '1', '--', 'echo', 'hi'],
      /QUEUED #\d+ \(quota\)/,
      tenant,
    );
    expect(interrupted.code).toBe(130);
    const waiting = interrupted.stderr.match(/lease_\w+/)?.[0] ?? '';
    expect(interrupted.stderr).toContain(
      `stopped following; the task keeps running on lease ${waiting}: gpurent logs -f ${waiting} follows it again, gpurent lease rm ${waiting} ends it`,
    );
    expect(json(await gpurent(['lease', 'show', waiting, '--json'], tenant)).status).toBe('QUEUED');
    // Its logs are empty, and say why.
    const empty = await gpurent(['logs', waiting], tenant);
    expect([empty.code, empty.stdout]).toEqual([0, '']);
    expect(empty.stderr).toBe(
      `${waiting}: no output yet: the task is WAITING; gpurent lease show ${waiting} says where the lease stands\n`,
    );
  });

  it('lease release (or lease rm) releases the lease', async () => {
    const result = await gpurent(['lease', 'release', leaseId, '--json']);
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
      // The domain's limits, checked before calling the API.
      [['lease', 'create', '--workload', 'training', '--gpus', '9'], /--gpus must be at most 8, not 9/],
      [
        ['lease', 'create', '--workload', 'batch', '--gpus', '1', '--duration', '50000'],
        /--duration must be at most 43200, not 50000/,
      ],
      // A typo is reported as the typo, not as the option it missed.
      [
        ['lease', 'create', '--workload', 'training', '--gpu', '2'],
        /^error: unknown option '--gpu' \(Did you mean --gpus\?\)$/,
      ],
      [['lease', 'create', '--gpus', '1'], /required option '--workload <kind>' not specified/],
      [['budget', 'set', 'x'], /required option '--limit <usd>' not specified/],
      [['group', 'set', 'web'], /give at least one field to change/],
      [['login', '--api', 'not a url', '--token', 't'], /--api must be a URL/],
      [
        ['lease', 'create', '--workload', 'batch', '--gpus', '1', '--priority', '1001'],
        /--priority must be at most 1000, not 1001/,
      ],
      [
        ['run', '--gpus', '1', '--max-wait', '0', '--', 'true'],
        /--max-wait must be a whole number of at least 1, not "0"/,
      ],
    ];
    for (const [args, message, configDir] of cases) {
      const result = await gpurent(args, configDir);
      expect(result.code, args.join(' ')).toBe(2);
      expect(oneLine(result.stderr)).toMatch(message);
    }
  });

  it('refusals and failures exit 1 with one line: the API said no, or could not be reached', async () => {
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
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(
      join(elsewhere, 'config.json'),
      JSON.stringify({ apiUrl: 'http://127.0.0.1:9', token: 't' }),
    );
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
