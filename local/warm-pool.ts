import { DescribeImagesCommand } from '@aws-sdk/client-ec2';
import { z } from 'zod';
import { MAX_WARM_POOL_SIZE } from '../shared/domain/warm-pools/pool';
import { Clients, ec2Client } from '../shared/lambda/clients';
import { ec2Compute, placementSettings } from '../shared/lambda/placement';
import { buildPorts } from '../shared/lambda/port-factory';
import { imageRepository, warmPoolRepository } from '../shared/lambda/stores';
import { priceCatalogValue, wallClock } from '../shared/lambda/values';
import { promoteImageVersion, registerImageVersion } from '../shared/usecases/images';
import { putWarmPool } from '../shared/usecases/warm-pools';

/** `npm start`'s warm pool: stopped machines of one type kept ready in the home region. */
export interface LocalWarmPool {
  readonly instanceType: string;
  readonly size: number;
}

const SPEC = /^(?<instanceType>[a-z0-9-]+\.[a-z0-9-]+):(?<size>\d+)$/;
const USAGE = `GPURENT_WARM_POOL must be <instance type>:<size>, size a whole number 0-${MAX_WARM_POOL_SIZE} (e.g. g5.xlarge:2)`;

const warmPoolVariable = z
  .string()
  .regex(SPEC, USAGE)
  .transform((value): LocalWarmPool => {
    const groups = SPEC.exec(value)?.groups ?? {};
    return { instanceType: groups.instanceType ?? '', size: Number(groups.size) };
  })
  .refine((pool) => pool.size <= MAX_WARM_POOL_SIZE, USAGE);

/** Reads GPURENT_WARM_POOL once; unset: no warm pool. A bad value fails with the expected form. */
export function warmPoolFromEnv(env: NodeJS.ProcessEnv): LocalWarmPool | undefined {
  const parsed = z.object({ GPURENT_WARM_POOL: warmPoolVariable.optional() }).safeParse(env);
  if (!parsed.success) throw new Error(`${USAGE}; got ${JSON.stringify(env.GPURENT_WARM_POOL)}`);
  return parsed.data.GPURENT_WARM_POOL;
}

/** The version of the default image `npm start` registers when a warm pool asks for one. */
export const LOCAL_IMAGE_VERSION = 'local';

/** The pool's name: its instance type, safe in keys and tags. */
export const localWarmPoolName = (pool: LocalWarmPool) => `local-${pool.instanceType.replaceAll('.', '-')}`;

/**
 * Defines the pool as an admin would: the default image gets a version from
 * the emulator's AMI (promoted unless it has a current one), and the pool
 * follows that image in the home region. The filler does the rest. An
 * instance type the catalog does not price there fails here, with the API's message.
 */
export async function defineLocalWarmPool(
  env: NodeJS.ProcessEnv,
  region: string,
  pool: LocalWarmPool,
): Promise<void> {
  const clients = new Clients();
  const deps = buildPorts(
    {
      images: imageRepository('readWrite'),
      warmPools: warmPoolRepository('readWrite'),
      compute: ec2Compute('fleet', 'imageVersions'),
      placement: placementSettings(),
      catalog: priceCatalogValue(),
      now: wallClock(),
    },
    env,
    clients,
  );
  const image = deps.placement.defaultImage;
  if (!(await deps.images.getImage(image))?.current) {
    const amis = await ec2Client(clients, region).send(
      new DescribeImagesCommand({ Owners: ['amazon'], MaxResults: 5 }),
    );
    const ami = amis.Images?.[0]?.ImageId;
    if (!ami) throw new Error('The EC2 emulator lists no images to build the warm pool from');
    await registerImageVersion(deps, image, LOCAL_IMAGE_VERSION, { [region]: ami });
    await promoteImageVersion(deps, image, LOCAL_IMAGE_VERSION);
  }
  await putWarmPool(deps, {
    name: localWarmPoolName(pool),
    region,
    instanceType: pool.instanceType,
    size: pool.size,
    image,
    prePull: [],
  });
}
