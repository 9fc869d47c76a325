import { MAX_WARM_POOL_SIZE } from '../shared/domain/warm-pools/pool';
import { type CliIo, callApi, client, integerOption, type OutputOptions, print, printPut } from './common';
import { details, table } from './table';

type WarmPool = {
  name: string;
  region: string;
  zone?: string;
  instanceType: string;
  size: number;
  image: string;
  prePull: string[];
  machines: { launching: number; stopping: number; ready: number };
  updatedAt: string;
};

export interface WarmPoolSetOptions extends OutputOptions {
  readonly region: string;
  readonly zone?: string;
  readonly instanceType: string;
  readonly size: string;
  readonly image: string;
  readonly prePull: readonly string[];
}

const poolPath = (name: string) => `v1/admin/warm-pools/${encodeURIComponent(name)}`;
const zoneOf = (pool: WarmPool) => pool.zone ?? 'any';

/** The PUT body from the flags; the API checks regions, types, zones, images and references. */
export const warmPoolSetBody = (options: WarmPoolSetOptions) => ({
  region: options.region,
  zone: options.zone,
  instanceType: options.instanceType,
  size: integerOption('--size', options.size, 0, MAX_WARM_POOL_SIZE),
  image: options.image,
  prePull: options.prePull,
});

function poolDetails(pool: WarmPool): string {
  const { launching, stopping, ready } = pool.machines;
  return details([
    ['warm pool', pool.name],
    ['where', `${pool.region} (zone: ${zoneOf(pool)})`],
    ['instance type', pool.instanceType],
    ['size', pool.size],
    ['image', pool.image],
    ['pre-pull', pool.prePull.join(' ') || 'none'],
    ['machines', `${ready} ready, ${launching} launching, ${stopping} stopping`],
  ]);
}

/** `gpurent admin warm-pool set`: create or redefine a pool; the filler brings it to size. */
export async function warmPoolSet(name: string, options: WarmPoolSetOptions, io: CliIo) {
  const body = warmPoolSetBody(options);
  const result = await (await client()).request<WarmPool>('PUT', poolPath(name), { body });
  printPut(io, options, 'warm pool', name, result, poolDetails);
}

export async function warmPoolList(options: OutputOptions, io: CliIo) {
  const result = await callApi<{ warmPools: WarmPool[] }>('GET', 'v1/admin/warm-pools');
  print(io, options, result, () =>
    table(
      ['WARM POOL', 'REGION', 'ZONE', 'TYPE', 'SIZE', 'READY', 'LAUNCHING', 'IMAGE'],
      result.warmPools.map((pool) => [
        pool.name,
        pool.region,
        zoneOf(pool),
        pool.instanceType,
        pool.size,
        pool.machines.ready,
        pool.machines.launching + pool.machines.stopping,
        pool.image,
      ]),
    ),
  );
}

export async function warmPoolRemove(name: string, options: OutputOptions, io: CliIo) {
  await callApi('DELETE', poolPath(name));
  print(
    io,
    options,
    { name, deleted: true },
    () => `Deleted warm pool ${name} (the filler ends its stopped machines)\n`,
  );
}
