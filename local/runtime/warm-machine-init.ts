import { CreateTagsCommand, DescribeInstancesCommand, type EC2Client } from '@aws-sdk/client-ec2';
import { WARM_IMAGE_TAG, WARM_POOL_TAG, WARM_READY_TAG } from '../../shared/domain/warm-pools/pool';

export interface WarmMachineInitOptions {
  readonly ec2: (region: string) => EC2Client;
  readonly regions: readonly string[];
  /** Poll period; undefined: only explicit `tick()` calls. */
  readonly everyMs?: number | undefined;
}

export interface LocalWarmMachineInit {
  /** One round: every running warm machine not yet ready tags itself ready. @returns how many did. */
  tick(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Plays a warm machine's user data (shared/domain/warm-pools/user-data.ts):
 * moto stores the script but never boots anything, so once a warm machine
 * runs, this tags it `gpurent:warm-ready=<the image version it was launched
 * from>`, as the script does after its agent, drivers and pre-pulls are in
 * place. Only running machines: a stopped one already said it was ready.
 */
export function startLocalWarmMachineInit(options: WarmMachineInitOptions): LocalWarmMachineInit {
  async function tick(): Promise<number> {
    let signalled = 0;
    for (const region of options.regions) {
      const ec2 = options.ec2(region);
      const found = await ec2.send(
        new DescribeInstancesCommand({
          Filters: [
            { Name: 'tag-key', Values: [WARM_POOL_TAG] },
            { Name: 'instance-state-name', Values: ['running'] },
          ],
        }),
      );
      for (const instance of (found.Reservations ?? []).flatMap((r) => r.Instances ?? [])) {
        const tag = (key: string) => instance.Tags?.find((t) => t.Key === key)?.Value;
        const image = tag(WARM_IMAGE_TAG);
        if (image === undefined || tag(WARM_READY_TAG) !== undefined || !instance.InstanceId) continue;
        await ec2.send(
          new CreateTagsCommand({
            Resources: [instance.InstanceId],
            Tags: [{ Key: WARM_READY_TAG, Value: image }],
          }),
        );
        signalled += 1;
      }
    }
    return signalled;
  }

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  const loop = () => {
    current = tick()
      .catch((error: unknown) => console.error('local warm machine init:', error))
      .finally(() => {
        if (!stopped && options.everyMs !== undefined) timer = setTimeout(loop, options.everyMs);
      });
  };
  if (options.everyMs !== undefined) timer = setTimeout(loop, options.everyMs);

  return {
    tick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
