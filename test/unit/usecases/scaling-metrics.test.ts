import { describe, expect, it } from 'vitest';
import {
  type GroupMember,
  type ScalingGroupSpecInput,
  scalingGroupSpecSchema,
} from '../../../shared/domain/scaling';
import { planScalingMetrics } from '../../../shared/usecases/scaling-metrics';

const MINUTE = 60_000;
const NOW = 1_000 * MINUTE + 20_000;

const spec = (input: Partial<ScalingGroupSpecInput> = {}) =>
  scalingGroupSpecSchema.parse({ instanceType: 'g5.xlarge', min: 1, max: 4, ...input });

const running = (instanceId: string, launchedMinutesAgo = 60): GroupMember => ({
  leaseId: `lease-${instanceId}`,
  status: 'RUNNING',
  mode: 'on-demand',
  createdAtMs: NOW - launchedMinutesAgo * MINUTE,
  launchedAtMs: NOW - launchedMinutesAgo * MINUTE,
  instanceIds: [instanceId],
});

const queueDepth = {
  metric: 'custom' as const,
  namespace: 'gpurent/t/shop',
  name: 'QueueDepth',
  dimensions: { Queue: 'orders' },
  statistic: 'Sum',
  comparison: '>' as const,
  threshold: 100,
};

describe('planScalingMetrics', () => {
  it('reads each GPU once per series, a shared custom metric once, and never a booting GPU', () => {
    const withQueue = spec({
      scaleOut: {
        match: 'any',
        conditions: [{ metric: 'gpuUtilization', comparison: '>', threshold: 80 }, queueDepth],
      },
    });
    const plan = planScalingMetrics(
      [
        { tenantId: 't', spec: withQueue, members: [running('i-a'), running('i-booting', 2)] },
        { tenantId: 't', spec: withQueue, members: [running('i-b')] },
      ],
      NOW,
    );

    expect(plan.queries.map((q) => `${q.metricName} ${JSON.stringify(q.dimensions)} ${q.statistic}`)).toEqual(
      [
        'nvidia_smi_utilization_gpu {"InstanceId":"i-a","index":"0"} Average',
        'QueueDepth {"Queue":"orders"} Sum',
        'nvidia_smi_utilization_gpu {"InstanceId":"i-b","index":"0"} Average',
      ],
    );
    const results = [
      [{ timestampMs: 0, value: 90 }],
      [{ timestampMs: 0, value: 500 }],
      [{ timestampMs: 0, value: 70 }],
    ];
    expect(plan.seriesOf(0, results)).toEqual({
      'gpuUtilization:Average': [{ timestampMs: 0, value: 90 }],
      'custom:gpurent/t/shop:QueueDepth:Queue=orders:Sum': [{ timestampMs: 0, value: 500 }],
    });
  });

  it('turns used and total memory into a fleet percentage', () => {
    const memory = spec({
      scaleOut: {
        conditions: [{ metric: 'gpuMemoryUsed', statistic: 'Maximum', comparison: '>', threshold: 90 }],
      },
    });
    const plan = planScalingMetrics(
      [{ tenantId: 't', spec: memory, members: [running('i-a'), running('i-b')] }],
      NOW,
    );

    expect(plan.queries.map((q) => q.metricName)).toEqual([
      'nvidia_smi_memory_used',
      'nvidia_smi_memory_total',
      'nvidia_smi_memory_used',
      'nvidia_smi_memory_total',
      'nvidia_smi_utilization_gpu',
      'nvidia_smi_utilization_gpu',
    ]);
    const at = (value: number) => [{ timestampMs: 0, value }];
    const series = plan.seriesOf(0, [at(12_000), at(24_000), at(18_000), at(24_000), at(50), at(50)]);
    expect(series['gpuMemoryUsed:Maximum']).toEqual([{ timestampMs: 0, value: 75 }]);
  });

  it('reads whole minutes back far enough for the longest window and the extra queries', () => {
    const long = spec({
      scaleIn: {
        conditions: [
          { metric: 'gpuUtilization', comparison: '<', threshold: 20, sustainedFor: 10, outOf: 15 },
        ],
      },
    });
    const extra = { queries: [], windowPeriods: 6 };

    expect(planScalingMetrics([{ tenantId: 't', spec: long, members: [] }], NOW, extra)).toMatchObject({
      fromMs: (1_000 - 15 - 2) * MINUTE,
      toMs: NOW,
    });
    expect(planScalingMetrics([], NOW, extra).fromMs).toBe((1_000 - 6 - 2) * MINUTE);
  });

  it("reads no custom metric outside the owner's gpurent/<tenant>/ namespaces, and says which it left", () => {
    const foreign = spec({
      min: 1,
      scaleOut: {
        match: 'any',
        conditions: [
          { ...queueDepth, namespace: 'CWAgent', name: 'nvidia_smi_utilization_gpu' },
          { ...queueDepth, namespace: 'gpurent/other/shop' },
          queueDepth,
        ],
      },
    });
    const plan = planScalingMetrics([{ tenantId: 't', spec: foreign, members: [] }], NOW);
    expect(plan.queries.map((q) => q.namespace)).toEqual(['gpurent/t/shop']);
    expect(plan.refusedOf(0)).toEqual(['CWAgent', 'gpurent/other/shop']);
    expect(plan.seriesOf(0, [[{ timestampMs: 0, value: 7 }]])).toMatchObject({
      'custom:CWAgent:nvidia_smi_utilization_gpu:Queue=orders:Sum': [],
      'custom:gpurent/other/shop:QueueDepth:Queue=orders:Sum': [],
      'custom:gpurent/t/shop:QueueDepth:Queue=orders:Sum': [{ timestampMs: 0, value: 7 }],
    });
  });
});
