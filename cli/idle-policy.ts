import type { IdleAction, IdlePolicy } from '../shared/domain/waste/idle-policy';
import { type CliIo, callApi, type OutputOptions, print } from './common';
import { usageError } from './errors';
import { details } from './table';

type IdlePolicies = { admin: IdlePolicy | null; tenant: IdlePolicy | null; effective: IdlePolicy | null };

const policyLine = (p: IdlePolicy | null) =>
  p === null
    ? 'none'
    : `${p.action} when every GPU < ${p.belowPercent}% for ${p.forMinutes} min${
        p.exempt.workloads.length + p.exempt.projects.length > 0
          ? `; exempt ${[...p.exempt.workloads, ...p.exempt.projects].join(', ')}`
          : ''
      }`;

const show = (io: CliIo, options: OutputOptions, body: IdlePolicies) =>
  print(io, options, body, () =>
    details([
      ['admin', policyLine(body.admin)],
      ['tenant', policyLine(body.tenant)],
      ['in force', policyLine(body.effective)],
    ]),
  );

export interface IdlePolicySetOptions extends OutputOptions {
  readonly action: IdleAction;
  readonly belowPercent?: string;
  readonly forMinutes?: string;
  readonly exemptWorkloads?: string;
  readonly exemptProjects?: string;
}

const list = (value: string | undefined) => (value ? value.split(',').map((v) => v.trim()) : undefined);

function numberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number)) throw usageError(`${name} must be a number, not "${value}"`);
  return number;
}

/** `gpurent idle-policy`: the admin's policy, the tenant's and the one in force. */
export async function idlePolicyShow(options: OutputOptions, io: CliIo) {
  show(io, options, await callApi<IdlePolicies>('GET', 'v1/idle-policy'));
}

/** `gpurent idle-policy set`: the tenant's own policy, refused (409) when it loosens the admin's. */
export async function idlePolicySet(options: IdlePolicySetOptions, io: CliIo) {
  const body = {
    action: options.action,
    belowPercent: numberOption('--below-percent', options.belowPercent),
    forMinutes: numberOption('--for-minutes', options.forMinutes),
    exempt:
      options.exemptWorkloads || options.exemptProjects
        ? { workloads: list(options.exemptWorkloads) ?? [], projects: list(options.exemptProjects) ?? [] }
        : undefined,
  };
  show(io, options, await callApi<IdlePolicies>('PUT', 'v1/idle-policy', { body }));
}
