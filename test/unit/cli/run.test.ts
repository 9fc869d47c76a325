import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError, EXIT } from '../../../cli/errors';
import {
  commandLineBase,
  interruptedRunNotice,
  type RunOptions,
  resultLine,
  runBodies,
  taskFileBase,
  unfinishedRunsError,
} from '../../../cli/run';
import { missingSessionTools } from '../../../cli/ssh';
import { expandSweep, parseParam, parseParams, substitute } from '../../../cli/sweep';
import { parseTaskFile } from '../../../cli/task-file';

const usage = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof CliError ? error.exitCode : 'not a CliError';
  }
  return 'no error';
};

describe('sweep parameters', () => {
  it('parses name=v1,v2 and refuses what is not one', () => {
    expect(parseParam('lr=0.1,0.01')).toEqual({ name: 'lr', values: ['0.1', '0.01'] });
    expect(parseParam('seed=1')).toEqual({ name: 'seed', values: ['1'] });
    expect(usage(() => parseParam('lr'))).toBe(EXIT.usage);
    expect(usage(() => parseParam('1lr=3'))).toBe(EXIT.usage);
    expect(usage(() => parseParam('lr=0.1,,0.3'))).toBe(EXIT.usage);
    expect(usage(() => parseParams(['lr=1', 'LR=2']))).toBe(EXIT.usage);
  });

  it('expands the cross product, the first parameter varying slowest', () => {
    expect(expandSweep(parseParams(['lr=0.1,0.01', 'batch=32,64']))).toEqual([
      { lr: '0.1', batch: '32' },
      { lr: '0.1', batch: '64' },
      { lr: '0.01', batch: '32' },
      { lr: '0.01', batch: '64' },
    ]);
    expect(expandSweep([])).toEqual([{}]);
  });

  it('substitutes {name} and leaves other braces alone', () => {
    expect(substitute(['train.py', '--lr={lr}', '{unknown}', '{"json": 1}'], { lr: '0.1' })).toEqual([
      'train.py',
      '--lr=0.1',
      '{unknown}',
      '{"json": 1}',
    ]);
  });
});

const options = (extra: Partial<RunOptions> = {}): RunOptions => ({
  workload: 'batch',
  gpus: '1',
  timeout: '3600',
  param: [],
  ...extra,
});

describe('gpurent run request bodies', () => {
  it('builds one lease with its task from the command line', () => {
    const base = commandLineBase(options({ onExit: 'keep', maxAttempts: '2', project: 'exp' }), [
      'python',
      'train.py',
    ]);
    expect(runBodies(base, [], () => 'unused')).toEqual([
      {
        body: {
          workload: 'batch',
          gpus: 1,
          project: 'exp',
          task: { command: ['python', 'train.py'], onExit: 'keep', maxAttempts: 2 },
        },
        params: {},
      },
    ]);
    expect(usage(() => commandLineBase(options(), []))).toBe(EXIT.usage);
    expect(usage(() => commandLineBase(options({ maxAttempts: 'x' }), ['true']))).toBe(EXIT.usage);
  });

  it('makes a 2×2 sweep of leases sharing one project, values in env and command', () => {
    const base = commandLineBase(options(), ['python', 'train.py', '--lr', '{lr}']);
    const runs = runBodies(base, parseParams(['lr=0.1,0.01', 'batch=32,64']), () => 'sweep-x');
    expect(runs).toHaveLength(4);
    expect(new Set(runs.map((run) => run.body.project))).toEqual(new Set(['sweep-x']));
    expect(runs[3]?.body.task).toEqual({
      command: ['python', 'train.py', '--lr', '0.01'],
      env: { LR: '0.01', BATCH: '64' },
    });
    // A project given keeps its label.
    expect(
      runBodies({ ...base, project: 'mine' }, parseParams(['lr=1']), () => 'sweep-x')[0]?.body.project,
    ).toBe('mine');
  });

  it('substitutes in a shell-string command and keeps the env a task file gives', async () => {
    const file = await parseTaskFile(
      [
        'workload: training',
        'gpus: 1',
        'task:',
        '  command: "python train.py --lr {lr}"',
        '  env: {WANDB_MODE: offline}',
        'params:',
        '  lr: [0.1, 0.2]',
      ].join('\n'),
      'task.yaml',
    );
    expect(file.params).toEqual([{ name: 'lr', values: ['0.1', '0.2'] }]);
    const runs = runBodies(
      file.lease,
      parseParams(file.params.map((p) => `${p.name}=${p.values.join(',')}`)),
      () => 's',
    );
    expect(runs.map((run) => run.body.task)).toEqual([
      { command: 'python train.py --lr 0.1', env: { WANDB_MODE: 'offline', LR: '0.1' } },
      { command: 'python train.py --lr 0.2', env: { WANDB_MODE: 'offline', LR: '0.2' } },
    ]);
    expect(file.lease).toEqual({
      workload: 'training',
      gpus: 1,
      task: { command: 'python train.py --lr {lr}', env: { WANDB_MODE: 'offline' } },
    });
  });

  it('runs a task file as written: its GPUs and workload, no flag needed', async () => {
    const file = await parseTaskFile(
      'workload: training\ngpus: 2\ntask: {command: "python train.py"}',
      'f.yaml',
    );
    expect(taskFileBase(file.lease, { timeout: '3600', param: [] })).toEqual({
      workload: 'training',
      gpus: 2,
      task: { command: 'python train.py' },
    });
    // A file that names no workload runs as batch, as the command line does.
    const bare = await parseTaskFile('gpus: 1\ntask: {command: x}', 'f.yaml');
    expect(taskFileBase(bare.lease, { timeout: '3600', param: [] }).workload).toBe('batch');
  });

  it("puts each flag given over the file's field, and leaves the rest as the file says", async () => {
    const file = await parseTaskFile(
      [
        'workload: training',
        'gpus: 1',
        'project: exp',
        'task:',
        '  command: python train.py',
        '  maxAttempts: 5',
        '  deadline: "2026-12-03T09:00:00Z"',
        '  workMinutes: 600',
      ].join('\n'),
      'f.yaml',
    );
    const base = taskFileBase(file.lease, {
      timeout: '3600',
      param: [],
      gpus: '4',
      mode: 'spot',
      maxRuntime: '90',
      work: '12h',
    });
    expect(base).toEqual({
      workload: 'training',
      gpus: 4,
      mode: 'spot',
      project: 'exp',
      task: {
        command: 'python train.py',
        maxAttempts: 5,
        maxRuntimeMinutes: 90,
        deadline: '2026-12-03T09:00:00Z',
        workMinutes: 720,
      },
    });
    // --restart goes with the file's deadline; with no deadline anywhere it is refused as on the command line.
    expect(usage(() => taskFileBase(file.lease, { timeout: '1', param: [], restart: '10m' }))).toBe(
      'no error',
    );
    const plain = await parseTaskFile('gpus: 1\ntask: {command: x}', 'f.yaml');
    expect(usage(() => taskFileBase(plain.lease, { timeout: '1', param: [], restart: '10m' }))).toBe(
      EXIT.usage,
    );
    expect(usage(() => taskFileBase(plain.lease, { timeout: '1', param: [], gpus: 'two' }))).toBe(EXIT.usage);
  });

  it('needs --gpus for a command line, which has no file to take them from', () => {
    expect(usage(() => commandLineBase({ timeout: '1', param: [] }, ['true']))).toBe(EXIT.usage);
    expect(commandLineBase({ timeout: '1', param: [], gpus: '1' }, ['true']).workload).toBe('batch');
  });

  it('refuses task files that are not YAML or hold no task', async () => {
    for (const [text, where] of [
      ['task: [unclosed', 'bad.yaml'],
      ['workload: batch', 'no-task.yaml'],
      ['task: {command: x}\nparams: [1]', 'p.yaml'],
    ] as const) {
      await expect(parseTaskFile(text, where)).rejects.toMatchObject({ exitCode: EXIT.usage });
    }
  });
});

describe('gpurent run --deadline --work --restart', () => {
  it('maps to the task fields deadline (UTC), workMinutes and restartMinutes', () => {
    const base = commandLineBase(options({ deadline: '2026-12-03T09:00Z', work: '48h', restart: '10m' }), [
      'python',
      'train.py',
    ]);
    expect(base.task).toEqual({
      command: ['python', 'train.py'],
      deadline: '2026-12-03T09:00:00.000Z',
      workMinutes: 2880,
      restartMinutes: 10,
    });
    const offset = commandLineBase(options({ deadline: '2026-12-03T10:30+01:00', work: '1d2h30m' }), [
      'true',
    ]);
    expect(offset.task).toMatchObject({ deadline: '2026-12-03T09:30:00.000Z', workMinutes: 1590 });
    expect(offset.task).not.toHaveProperty('restartMinutes');
    expect(
      commandLineBase(options({ deadline: '2026-12-03T09:00Z', work: '90', restart: '0m' }), ['true']).task,
    ).toMatchObject({ workMinutes: 90, restartMinutes: 0 });
  });

  it('refuses durations, date-times and combinations the API would not take, before any request', () => {
    const bad = (extra: Partial<RunOptions>) => usage(() => commandLineBase(options(extra), ['true']));
    expect(bad({ deadline: '2026-12-03T09:00Z', work: '2 days' })).toBe(EXIT.usage);
    expect(bad({ deadline: '2026-12-03T09:00Z', work: '90s' })).toBe(EXIT.usage);
    expect(bad({ deadline: '2026-12-03T09:00Z', work: '0m' })).toBe(EXIT.usage);
    expect(bad({ deadline: '2026-12-03T09:00Z', work: '31d' })).toBe(EXIT.usage);
    expect(bad({ deadline: '2026-12-03T09:00Z', work: '1h', restart: '4h' })).toBe(EXIT.usage);
    expect(bad({ deadline: '2026-12-03', work: '1h' })).toBe(EXIT.usage);
    expect(bad({ deadline: '2026-12-03T09:00', work: '1h' })).toBe(EXIT.usage);
    expect(bad({ deadline: 'tomorrow', work: '1h' })).toBe(EXIT.usage);
    expect(bad({ deadline: '2026-12-03T09:00Z' })).toBe(EXIT.usage);
    expect(bad({ work: '48h' })).toBe(EXIT.usage);
    expect(bad({ restart: '10m' })).toBe(EXIT.usage);
  });
});

describe('gpurent ssh prerequisites', () => {
  const folderWith = async (...programs: string[]) => {
    const folder = await mkdtemp(join(tmpdir(), 'gpurent-path-'));
    for (const program of programs) {
      await writeFile(join(folder, program), '#!/bin/sh\n');
      await chmod(join(folder, program), 0o755);
    }
    return folder;
  };

  it('names the AWS CLI, then the Session Manager plugin, when missing from PATH', async () => {
    expect(await missingSessionTools(await folderWith())).toMatch(/AWS CLI/);
    expect(await missingSessionTools(await folderWith('aws'))).toMatch(/session-manager-plugin/);
    expect(await missingSessionTools(await folderWith('aws', 'session-manager-plugin'))).toBeUndefined();
  });
});

describe('gpurent run summary lines', () => {
  it('says why a run that did not succeed ended, and nothing more for one that did', () => {
    const timedOut = {
      leaseId: 'lease_1',
      params: {},
      status: 'FAILED',
      costUsd: 0,
      failureReason: 'QUEUE_TIMEOUT: not admitted within maxWaitMinutes (1); it never ran',
    };
    expect(resultLine(timedOut)).toBe(
      'lease_1  FAILED  exit -  $0.000000  QUEUE_TIMEOUT: not admitted within maxWaitMinutes (1); it never ran',
    );
    expect(resultLine({ ...timedOut, status: 'SUCCEEDED', exitCode: 0, costUsd: 0.0055 })).toBe(
      'lease_1  SUCCEEDED  exit 0  $0.005500',
    );
  });
});

describe('Ctrl-C on gpurent run', () => {
  it('says the task goes on, and how to follow it again or end it', () => {
    expect(interruptedRunNotice(['lease_1'])).toBe(
      '\nstopped following; the task keeps running on lease lease_1: gpurent logs -f lease_1 follows it again, gpurent lease rm lease_1 ends it\n',
    );
    expect(interruptedRunNotice(['lease_1', 'lease_2'])).toBe(
      '\nstopped following; the 2 tasks keep running on leases lease_1, lease_2: gpurent lease rm <lease> ends one\n',
    );
  });
});

describe('gpurent run --timeout', () => {
  const run = (leaseId: string, status: string) => ({ leaseId, params: {}, status, costUsd: 0 });

  it('names the run still going, after its line is printed; nothing when every run ended', () => {
    expect(unfinishedRunsError([run('lease_1', 'RUNNING')])?.message).toBe(
      'lease lease_1: the task has not ended in time (it keeps going; gpurent logs -f lease_1)',
    );
    expect(
      unfinishedRunsError([run('lease_1', 'SUCCEEDED'), run('lease_2', 'WAITING'), run('lease_3', 'RUNNING')])
        ?.message,
    ).toBe('2 of 3 runs had not ended in time (they keep going; gpurent lease ls)');
    expect(
      unfinishedRunsError([run('lease_1', 'SUCCEEDED'), run('lease_2', 'FAILED'), run('lease_3', 'STOPPED')]),
    ).toBeUndefined();
  });
});
