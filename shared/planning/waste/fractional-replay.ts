import { costOfRun } from '../../domain/billing';
import type { PriceCatalog } from '../../domain/catalog';
import type { MicroUsd } from '../../domain/money';
import { fractionFor, type GpuFraction, typesForGpus } from '../../domain/waste/fractional';

/** A task of a demand trace: `gpus` GPUs, or with `gpuShare` < 1 a share of one GPU (Alibaba `gpu_milli` / 1000). */
export interface SharingTask {
  readonly id: string;
  readonly gpus: number;
  readonly gpuShare: number;
  readonly startMs: number;
  readonly endMs: number;
}

/** Where one task runs in the fractional replay. */
export interface FractionalPlacement {
  readonly taskId: string;
  readonly instanceType: string;
  /** The fraction asked for, or null when the task needs a whole GPU (or more). */
  readonly fraction: GpuFraction | null;
  readonly costMicroUsd: MicroUsd;
}

export interface FractionalReplay {
  readonly placements: readonly FractionalPlacement[];
  /** Tasks with a share of one GPU (`gpuShare` < 1), and how many of them a fraction holds. */
  readonly sharingTasks: number;
  readonly onFractions: number;
  readonly byFraction: Readonly<Record<string, number>>;
  /** Every sharing task on one whole `wholeInstanceType` each (the default replay counts them so). */
  readonly wholeMicroUsd: MicroUsd;
  /** The same tasks, on the cheapest fractional type that holds their share where one does. */
  readonly fractionalMicroUsd: MicroUsd;
}

/**
 * Places each GPU-sharing task of a trace on the cheapest fractional type
 * priced in `region` whose share holds the task's (its share rounded up to
 * an allowed fraction), else on one whole `wholeInstanceType` as the default
 * replay does; billed as metering bills (per second, one-minute minimum),
 * on-demand. Tasks of whole GPUs are not part of the comparison: they cost
 * the same either way.
 */
export function replayOnFractions(
  tasks: readonly SharingTask[],
  catalog: PriceCatalog,
  region: string,
  wholeInstanceType: string,
): FractionalReplay {
  const types = catalog.typesFor({}, [region]).map((offering) => offering.instanceType);
  const wholePrice = catalog.onDemandMicroPerHour(wholeInstanceType, region);
  const cheapestFor = new Map<GpuFraction, string | undefined>();
  const cheapest = (fraction: GpuFraction) => {
    if (!cheapestFor.has(fraction)) {
      const fitting = typesForGpus(catalog, fraction, types).sort(
        (a, b) => catalog.onDemandMicroPerHour(a, region) - catalog.onDemandMicroPerHour(b, region),
      );
      cheapestFor.set(fraction, fitting[0]);
    }
    return cheapestFor.get(fraction);
  };
  const placements: FractionalPlacement[] = [];
  const byFraction: Record<string, number> = {};
  let wholeMicroUsd = 0;
  let fractionalMicroUsd = 0;
  for (const task of tasks) {
    if (task.gpuShare >= 1 || task.gpuShare <= 0) continue;
    const whole = costOfRun({ launchedAtMs: task.startMs, priceMicroUsdPerHour: wholePrice }, task.endMs);
    const fraction = fractionFor(task.gpuShare);
    const type = fraction === null ? undefined : cheapest(fraction);
    const placed =
      fraction === null || type === undefined
        ? { taskId: task.id, instanceType: wholeInstanceType, fraction: null, costMicroUsd: whole }
        : {
            taskId: task.id,
            instanceType: type,
            fraction,
            costMicroUsd: costOfRun(
              {
                launchedAtMs: task.startMs,
                priceMicroUsdPerHour: catalog.onDemandMicroPerHour(type, region),
              },
              task.endMs,
            ),
          };
    if (placed.fraction !== null) byFraction[placed.fraction] = (byFraction[placed.fraction] ?? 0) + 1;
    placements.push(placed);
    wholeMicroUsd += whole;
    fractionalMicroUsd += placed.costMicroUsd;
  }
  return {
    placements,
    sharingTasks: placements.length,
    onFractions: placements.filter((p) => p.fraction !== null).length,
    byFraction,
    wholeMicroUsd,
    fractionalMicroUsd,
  };
}
