import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUERIES_PER_CALL } from '../../shared/adapters/cloudwatch-metric-reader';
import { GROUPS_PER_PAGE, type ScalingDeps } from '../../shared/usecases/evaluate-scaling-groups';
import { useFreshResources } from '../support/function-env';
import { countMetricDataCalls, seedGroupsWithOneMember } from '../support/scaling-groups';

const GROUPS = 1_000;

let deps: ScalingDeps;
let counter: ReturnType<typeof countMetricDataCalls>;

beforeAll(async () => {
  const env = await useFreshResources();
  const cloudWatch = new CloudWatchClient({});
  counter = countMetricDataCalls(cloudWatch);
  const { buildPorts } = await import('../../shared/lambda/port-factory');
  const { Clients } = await import('../../shared/lambda/clients');
  const { scalingEvaluatorWiring } = await import('../../functions/scaling-evaluator/wiring');
  deps = buildPorts(scalingEvaluatorWiring, env, new Clients({ cloudwatch: cloudWatch }));
}, 300_000);

describe('evaluating 1,000 scaling groups', () => {
  it('reads every metric, the health sweep included, page by page in ceil(queries / 500) GetMetricData calls a page', async () => {
    const now = Date.now();
    // Every group watches its GPU's utilization; every other one also the hottest GPU.
    await seedGroupsWithOneMember(deps, GROUPS, now, (i) =>
      i % 2 === 0
        ? {}
        : {
            scaleOut: {
              match: 'any',
              conditions: [
                { metric: 'gpuUtilization', comparison: '>', threshold: 80 },
                { metric: 'gpuTemperature', statistic: 'Maximum', comparison: '>', threshold: 85 },
              ],
            },
          },
    );
    const { evaluateScalingGroups } = await import('../../shared/usecases/evaluate-scaling-groups');

    const summary = await evaluateScalingGroups(deps, now);

    expect(summary.groups).toBe(GROUPS);
    expect(summary.failures).toEqual([]);
    // Utilization per GPU and the hottest reading per GPU: the health sweep and idle reads ride in the
    // first page's read only, so groups of later pages read again what those already asked.
    expect(summary.metricQueries).toBeGreaterThanOrEqual(2 * GROUPS);
    // Pages of GROUPS_PER_PAGE, each read in full calls of 500 but its last.
    const pages = Math.ceil(GROUPS / GROUPS_PER_PAGE);
    expect(counter.calls()).toBeLessThanOrEqual(
      Math.ceil(summary.metricQueries / MAX_QUERIES_PER_CALL) + pages - 1,
    );
    expect(counter.calls()).toBeGreaterThanOrEqual(pages);
    expect(summary.outcomes.unchanged).toBe(GROUPS);
  }, 300_000);
});
