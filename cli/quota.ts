import { MAX_QUOTA_GPUS } from '../shared/domain/admission/quota';
import type { RentalMode } from '../shared/domain/lease';
import {
  type CliIo,
  callApi,
  integerOption,
  numberOption,
  type OutputOptions,
  print,
  usdPerHourForPeople,
} from './common';
import { details } from './table';

type TenantQuota = {
  tenantId: string;
  quota: {
    maxGpus: number;
    maxHourlyUsd: number;
    maxGpusByMode?: Partial<Record<RentalMode, number>>;
    weight: number;
  };
  isDefault: boolean;
  usage: { gpus: number; hourlyUsd: number; gpusByMode: Partial<Record<RentalMode, number>> };
};

const modeCaps = (caps: Partial<Record<RentalMode, number>> | undefined) =>
  Object.entries(caps ?? {})
    .map(([mode, gpus]) => `${mode} ${gpus}`)
    .join(', ') || 'none';

const show = (io: CliIo, options: OutputOptions, body: TenantQuota) =>
  print(io, options, body, () =>
    details([
      ['tenant', body.tenantId],
      ['quota', body.isDefault ? 'the default (no quota of its own)' : 'its own'],
      ['GPUs', `${body.usage.gpus} of ${body.quota.maxGpus}`],
      [
        'hourly',
        `${usdPerHourForPeople(body.usage.hourlyUsd)} of ${usdPerHourForPeople(body.quota.maxHourlyUsd)}`,
      ],
      ['caps by mode', modeCaps(body.quota.maxGpusByMode)],
      ['weight', body.quota.weight],
    ]),
  );

/** `gpurent quota`: the caller's quota in force and its use. */
export async function quotaShow(options: OutputOptions, io: CliIo) {
  show(io, options, await callApi<TenantQuota>('GET', 'v1/quota'));
}

export interface QuotaSetOptions extends OutputOptions {
  readonly maxGpus: string;
  readonly maxHourlyUsd: string;
  readonly maxOnDemandGpus?: string;
  readonly maxSpotGpus?: string;
  readonly maxReservedGpus?: string;
  readonly weight?: string;
}

/** The PUT body from the flags; the API checks the rest (exact money, weight range) and stores nothing on a 400. */
export function quotaSetBody(options: QuotaSetOptions) {
  const cap = (name: string, value: string | undefined) => integerOption(name, value, 0, MAX_QUOTA_GPUS);
  const byMode = {
    'on-demand': cap('--max-on-demand-gpus', options.maxOnDemandGpus),
    spot: cap('--max-spot-gpus', options.maxSpotGpus),
    reserved: cap('--max-reserved-gpus', options.maxReservedGpus),
  };
  const anyCap = Object.values(byMode).some((gpus) => gpus !== undefined);
  return {
    maxGpus: cap('--max-gpus', options.maxGpus),
    maxHourlyUsd: numberOption('--max-hourly-usd', options.maxHourlyUsd),
    ...(anyCap && { maxGpusByMode: byMode }),
    weight: numberOption('--weight', options.weight),
  };
}

/** `gpurent admin quota set <tenant>`: the tenant's own quota. */
export async function quotaSet(tenantId: string, options: QuotaSetOptions, io: CliIo) {
  const body = quotaSetBody(options);
  show(io, options, await callApi<TenantQuota>('PUT', tenantQuotaPath(tenantId), { body }));
}

/** `gpurent admin quota show <tenant>`. */
export async function quotaShowFor(tenantId: string, options: OutputOptions, io: CliIo) {
  show(io, options, await callApi<TenantQuota>('GET', tenantQuotaPath(tenantId)));
}

const tenantQuotaPath = (tenantId: string) => `v1/admin/tenants/${encodeURIComponent(tenantId)}/quota`;
