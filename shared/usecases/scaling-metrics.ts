import {
  GPU_METRIC_PERIOD_SECONDS,
  gpuDimensions,
  gpuMetricNamespace,
  NVIDIA_SMI_METRICS,
} from '../domain/gpu-telemetry';
import {
  combineFleetSeries,
  type Datapoint,
  type GpuCondition,
  type GpuMetric,
  type GroupMember,
  isBooting,
  isLive,
  type MetricSeries,
  memoryUsedPercent,
  ownsNamespace,
  type ScalingCondition,
  type ScalingGroupSpec,
  seriesKey,
} from '../domain/scaling';
import { type MetricQuery, metricQueryKey } from '../ports/metrics';

const PERIOD_MS = GPU_METRIC_PERIOD_SECONDS * 1000;

/** The agent's series behind each single-series GPU metric of the rules. */
const AGENT_METRIC: Record<Exclude<GpuMetric, 'gpuMemoryUsed'>, string> = {
  gpuUtilization: NVIDIA_SMI_METRICS.utilization,
  gpuTemperature: NVIDIA_SMI_METRICS.temperature,
  gpuPower: NVIDIA_SMI_METRICS.power,
};

type Results = readonly (readonly Datapoint[])[];

/** Collects queries once each, however many groups and conditions ask for them. */
class QueryList {
  readonly queries: MetricQuery[] = [];
  private readonly indexByKey = new Map<string, number>();

  add(query: MetricQuery): number {
    const key = metricQueryKey(query);
    const known = this.indexByKey.get(key);
    if (known !== undefined) return known;
    this.queries.push(query);
    this.indexByKey.set(key, this.queries.length - 1);
    return this.queries.length - 1;
  }
}

/**
 * Group members are single-GPU types (`putScalingGroup` refuses any other, see
 * `singleGpuTypes`), so a member's one GPU is index 0: every GPU is read.
 */
const MEMBER_GPU_INDEX = 0;

/** A judged member's instance, with the lease whose namespace alone its telemetry can be in. */
interface JudgedInstance {
  readonly tenantId: string;
  readonly leaseId: string;
  readonly instanceId: string;
}

const gpuQuery = (gpu: JudgedInstance, metricName: string, statistic: string): MetricQuery => ({
  namespace: gpuMetricNamespace(gpu),
  metricName,
  dimensions: gpuDimensions(gpu.instanceId, MEMBER_GPU_INDEX),
  statistic,
  periodSeconds: GPU_METRIC_PERIOD_SECONDS,
});

/** How to build one fleet series from the results of the shared query list. */
type SeriesRecipe = (results: Results) => Datapoint[];

function gpuRecipe(
  list: QueryList,
  condition: GpuCondition,
  instances: readonly JudgedInstance[],
): SeriesRecipe {
  const { metric, statistic } = condition;
  if (metric === 'gpuMemoryUsed') {
    const pairs = instances.map((id) => [
      list.add(gpuQuery(id, NVIDIA_SMI_METRICS.memoryUsed, 'Average')),
      list.add(gpuQuery(id, NVIDIA_SMI_METRICS.memoryTotal, 'Average')),
    ]);
    return (results) =>
      combineFleetSeries(
        pairs.map(([used, total]) =>
          memoryUsedPercent(results[used ?? -1] ?? [], results[total ?? -1] ?? []),
        ),
        statistic,
      );
  }
  const indexes = instances.map((id) => list.add(gpuQuery(id, AGENT_METRIC[metric], statistic)));
  return (results) =>
    combineFleetSeries(
      indexes.map((i) => results[i] ?? []),
      statistic,
    );
}

function recipeFor(
  list: QueryList,
  condition: ScalingCondition,
  instances: readonly JudgedInstance[],
  tenantId: string,
): SeriesRecipe {
  if (condition.metric !== 'custom') return gpuRecipe(list, condition, instances);
  // GetMetricData cannot be narrowed in IAM (no resource-level permissions), so
  // this is where a tenant is kept to its own metrics: a group stored before
  // the API refused foreign namespaces reads nothing there (no datapoint ever breaches).
  if (!ownsNamespace(tenantId, condition.namespace)) return () => [];
  const index = list.add({
    namespace: condition.namespace,
    metricName: condition.name,
    dimensions: condition.dimensions,
    statistic: condition.statistic,
    periodSeconds: GPU_METRIC_PERIOD_SECONDS,
  });
  return (results) => [...(results[index] ?? [])];
}

export interface GroupToRead {
  /** The group's owner: its custom conditions may read only `gpurent/<tenant>/…`. */
  readonly tenantId: string;
  readonly spec: ScalingGroupSpec;
  readonly members: readonly GroupMember[];
}

export interface ScalingMetricsPlan {
  /** Every distinct query of every group, and the extra ones. */
  readonly queries: readonly MetricQuery[];
  /** Where each extra query's results are in `queries`. */
  readonly extraIndexes: readonly number[];
  readonly fromMs: number;
  readonly toMs: number;
  /** The fleet series of group `index` (in the order given) from the results of `queries`. */
  seriesOf(index: number, results: Results): MetricSeries;
  /** The namespaces of group `index`'s custom conditions that were not read: not the tenant's own. */
  refusedOf(index: number): readonly string[];
}

/**
 * One read for all groups: each condition becomes one query per judged GPU
 * (running members past their warm-up; booting ones publish nothing useful
 * yet) or one query for a custom metric, deduplicated across groups, over one
 * window long enough for the longest condition. `extra` queries (the GPU
 * health sweep's) ride along in the same calls.
 */
export function planScalingMetrics(
  groups: readonly GroupToRead[],
  nowMs: number,
  extra: { readonly queries: readonly MetricQuery[]; readonly windowPeriods: number } = {
    queries: [],
    windowPeriods: 1,
  },
): ScalingMetricsPlan {
  const list = new QueryList();
  const extraIndexes = extra.queries.map((query) => list.add(query));
  let longestWindow = extra.windowPeriods;
  const refused = groups.map(({ tenantId, spec }) => [
    ...new Set(
      [...spec.scaleOut.conditions, ...spec.scaleIn.conditions].flatMap((c) =>
        c.metric === 'custom' && !ownsNamespace(tenantId, c.namespace) ? [c.namespace] : [],
      ),
    ),
  ]);
  const recipes = groups.map(({ tenantId, spec, members }) => {
    const judged = members
      .filter((m) => isLive(m) && !isBooting(m, spec.instanceWarmupSeconds, nowMs))
      .flatMap((m) => m.instanceIds.map((instanceId) => ({ tenantId, leaseId: m.leaseId, instanceId })));
    const byKey = new Map<string, SeriesRecipe>();
    for (const condition of [...spec.scaleOut.conditions, ...spec.scaleIn.conditions]) {
      longestWindow = Math.max(longestWindow, condition.outOf);
      const key = seriesKey(condition);
      if (!byKey.has(key)) byKey.set(key, recipeFor(list, condition, judged, tenantId));
    }
    return byKey;
  });
  // Whole minutes, so that every series is stamped on the minute as CloudWatch stamps it.
  const fromMs = (Math.floor(nowMs / PERIOD_MS) - longestWindow - 2) * PERIOD_MS;
  return {
    queries: list.queries,
    extraIndexes,
    fromMs,
    toMs: nowMs,
    refusedOf: (index) => refused[index] ?? [],
    seriesOf: (index, results) =>
      Object.fromEntries(
        [...(recipes[index] ?? new Map<string, SeriesRecipe>())].map(([key, recipe]) => [
          key,
          recipe(results),
        ]),
      ),
  };
}
