import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Workload } from '../shared/domain/lease';
import {
  type CliIo,
  callApi,
  client,
  givenFields,
  integerOption,
  type OutputOptions,
  print,
  printPut,
} from './common';
import { usageError } from './errors';
import { details, table } from './table';

type Evaluation = { at: string; action: string; from: number; to: number; reason: string };

type Group = {
  name: string;
  status: string;
  spec: { instanceType: string; workload: string; min: number; max: number };
  desired: number;
  size: number;
  members: { leaseId: string; status: string; mode: string; booting: boolean; launchedAt?: string }[];
  lastEvaluation?: Evaluation;
  decisions: Evaluation[];
};

type GroupSummary = {
  name: string;
  status: string;
  instanceType: string;
  min: number;
  max: number;
  desired: number;
  members: number;
  lastEvaluation?: Evaluation;
};

export interface GroupFieldOptions extends OutputOptions {
  readonly instanceType?: string;
  readonly workload?: Workload;
  readonly min?: string;
  readonly max?: string;
  readonly desired?: string;
}

export interface GroupPutOptions extends GroupFieldOptions {
  readonly spec?: string;
}

const groupPath = (name: string) => `v1/scaling-groups/${encodeURIComponent(name)}`;
const evaluationLine = (e: Evaluation | undefined) =>
  e && `${e.at} ${e.action} ${e.from}→${e.to}: ${e.reason}`;

/** The spec file (the API's JSON body: rules and all), with the flags on top. */
async function specOf(options: GroupPutOptions, cwd: string): Promise<Record<string, unknown>> {
  let spec: Record<string, unknown> = {};
  if (options.spec) {
    const file = resolve(cwd, options.spec);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      throw usageError(`--spec: cannot read ${file}`);
    }
    try {
      spec = JSON.parse(text);
    } catch {
      throw usageError(`--spec: ${file} is not JSON (write the body of PUT /v1/scaling-groups/{name})`);
    }
  }
  return { ...spec, ...fieldsOf(options) };
}

/** The fields the flags set, and only those. */
function fieldsOf(options: GroupFieldOptions): Record<string, unknown> {
  const flags = {
    instanceType: options.instanceType,
    workload: options.workload,
    min: integerOption('--min', options.min, 0),
    max: integerOption('--max', options.max, 0),
    desired: integerOption('--desired', options.desired, 0),
  };
  return givenFields(flags);
}

export async function groupPut(name: string, options: GroupPutOptions, io: CliIo) {
  const spec = await specOf(options, io.cwd);
  const result = await (await client()).request<Group>('PUT', groupPath(name), { body: spec });
  printPut(io, options, 'group', name, result, groupDetails);
}

/**
 * Changes the fields given and keeps the rest of the stored spec (rules,
 * cooldowns…): reads the group, merges, PUTs the whole spec back. Without
 * --desired the group keeps its size within the new bounds, as a PUT without
 * `desired` does.
 */
export async function groupSet(name: string, options: GroupFieldOptions, io: CliIo) {
  const fields = fieldsOf(options);
  if (Object.keys(fields).length === 0)
    throw usageError(
      'give at least one field to change: --instance-type, --workload, --min, --max or --desired',
    );
  const api = await client();
  const { desired: _stored, ...spec } = (await api.request<Group>('GET', groupPath(name))).body
    .spec as Record<string, unknown>;
  const result = await api.request<Group>('PUT', groupPath(name), { body: { ...spec, ...fields } });
  printPut(io, options, 'group', name, result, groupDetails);
}

function groupDetails(group: Group): string {
  const summary = details([
    ['group', group.name],
    ['status', group.status],
    ['instance type', group.spec.instanceType],
    ['workload', group.spec.workload],
    ['bounds', `${group.spec.min}-${group.spec.max} GPUs`],
    ['desired', group.desired],
    ['size', group.size],
    ['last evaluation', evaluationLine(group.lastEvaluation)],
  ]);
  const members =
    group.members.length === 0
      ? ''
      : `\n${table(
          ['LEASE', 'STATUS', 'MODE', 'BOOTING', 'LAUNCHED'],
          group.members.map((m) => [m.leaseId, m.status, m.mode, m.booting ? 'yes' : 'no', m.launchedAt]),
        )}`;
  const decisions =
    group.decisions.length === 0
      ? ''
      : `\n${table(
          ['AT', 'ACTION', 'FROM', 'TO', 'REASON'],
          group.decisions.map((d) => [d.at, d.action, d.from, d.to, d.reason]),
        )}`;
  return summary + members + decisions;
}

export async function groupList(options: OutputOptions, io: CliIo) {
  const result = await callApi<{ groups: GroupSummary[] }>('GET', 'v1/scaling-groups');
  print(io, options, result, () =>
    table(
      ['GROUP', 'STATUS', 'TYPE', 'MIN', 'MAX', 'DESIRED', 'MEMBERS', 'LAST EVALUATION'],
      result.groups.map((g) => [
        g.name,
        g.status,
        g.instanceType,
        g.min,
        g.max,
        g.desired,
        g.members,
        g.lastEvaluation && `${g.lastEvaluation.at} ${g.lastEvaluation.action}`,
      ]),
    ),
  );
}

export async function groupShow(name: string, options: OutputOptions, io: CliIo) {
  const group = await callApi<Group>('GET', groupPath(name));
  print(io, options, group, () => groupDetails(group));
}

export async function groupRemove(name: string, options: OutputOptions, io: CliIo) {
  const result = await callApi<{ released: string[] }>('DELETE', groupPath(name));
  const released = result.released.length ? `: ${result.released.join(', ')}` : '';
  print(
    io,
    options,
    result,
    () => `Deleted group ${name}; released ${result.released.length} lease(s)${released}\n`,
  );
}
