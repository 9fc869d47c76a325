import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { startEmulators } from '../../local/emulators';
import { prepareFunctionEnvironment } from '../../local/environment';
import type { MetricReader } from '../../shared/ports/metrics';
import { countMetricDataCalls, seedGroupsWithOneMember } from '../../test/support/scaling-groups';
import { medianMsAsync } from './stats';

export interface EvaluationTiming {
  readonly groups: number;
  readonly metricQueries: number;
  readonly batchedMs: number;
  readonly batchedMetricCalls: number;
  /** The baseline: the same evaluation with one GetMetricData call per group's queries. */
  readonly perGroupMs: number;
  readonly perGroupMetricCalls: number;
}

/** Reads each group's two queries (utilization, health) in a call of its own, as a per-group loop would. */
function perGroupReader(reader: MetricReader, queriesPerGroup: number): MetricReader {
  return {
    async read(queries, fromMs, toMs) {
      const results = [];
      for (let start = 0; start < queries.length; start += queriesPerGroup) {
        results.push(...(await reader.read(queries.slice(start, start + queriesPerGroup), fromMs, toMs)));
      }
      return results;
    },
  };
}

/**
 * One evaluation of `groups` scaling groups (one running member each, default
 * rules) against DynamoDB Local and moto, on emulators of its own: the
 * evaluator as it runs, against the same evaluation reading per group.
 */
export async function timeEvaluation(groups: number, rounds: number): Promise<EvaluationTiming> {
  const emulators = await startEmulators();
  try {
    const env = await prepareFunctionEnvironment(emulators.endpoints, 'us-east-1', 'bench');
    Object.assign(process.env, env);
    const { buildPorts } = await import('../../shared/lambda/port-factory');
    const { Clients } = await import('../../shared/lambda/clients');
    const { scalingEvaluatorWiring } = await import('../../functions/scaling-evaluator/wiring');
    const { evaluateScalingGroups } = await import('../../shared/usecases/evaluate-scaling-groups');
    const cloudWatch = new CloudWatchClient({});
    const counter = countMetricDataCalls(cloudWatch);
    const deps = buildPorts(scalingEvaluatorWiring, env, new Clients({ cloudwatch: cloudWatch }));
    const nowMs = Date.now();
    await seedGroupsWithOneMember(deps, groups, nowMs);

    // The first run also marks every (silent) GPU unhealthy once; the timed runs find the marks.
    const first = await evaluateScalingGroups(deps, nowMs);
    const calls = () => counter.calls();
    let before = calls();
    const batchedMs = await medianMsAsync(() => evaluateScalingGroups(deps, nowMs), rounds);
    const batchedMetricCalls = (calls() - before) / rounds;
    const naive = { ...deps, metrics: perGroupReader(deps.metrics, first.metricQueries / groups) };
    before = calls();
    const perGroupMs = await medianMsAsync(() => evaluateScalingGroups(naive, nowMs), rounds);
    const perGroupMetricCalls = (calls() - before) / rounds;
    return {
      groups,
      metricQueries: first.metricQueries,
      batchedMs,
      batchedMetricCalls,
      perGroupMs,
      perGroupMetricCalls,
    };
  } finally {
    await emulators.stop();
  }
}
