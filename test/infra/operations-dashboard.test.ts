import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GpurentStack } from '../../infra/gpurent-stack';
import { METRIC_NAMES } from '../../shared/metric-names';
import { logicalIdOf, SYNTH_TIMEOUT_MS, synthesizeGpurent } from './support/synth';

/** One metric line of a widget: [namespace, name, dimension, value, …, options?] or [{ expression, … }]. */
type MetricLine = unknown[];
interface Widget {
  type: string;
  properties: { title?: string; metrics?: MetricLine[]; alarms?: unknown[]; start?: string };
}

let stack: GpurentStack;
let widgets: Widget[];
let alarmCount: number;

/** The dashboard body with every token (a Ref, a GetAtt) as `<logicalId>`, parsed. */
function dashboardBody(resolved: unknown): { widgets: Widget[] } {
  const join = resolved as { 'Fn::Join': [string, unknown[]] };
  const text = join['Fn::Join'][1]
    .map((part) => {
      if (typeof part === 'string') return part;
      const token = part as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
      return `<${token.Ref ?? token['Fn::GetAtt']?.[0] ?? 'pseudo'}>`;
    })
    .join('');
  return JSON.parse(text);
}

beforeAll(() => {
  const synthesized = synthesizeGpurent();
  stack = synthesized.stack;
  const template = synthesized.template();
  const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
  widgets = dashboardBody(stack.resolve(dashboard?.Properties?.DashboardBody)).widgets;
  alarmCount = Object.keys(template.findResources('AWS::CloudWatch::Alarm')).length;
}, SYNTH_TIMEOUT_MS);

const widget = (title: string): Widget => {
  const found = widgets.find((w) => w.properties.title === title);
  if (!found) throw new Error(`no widget titled "${title}"`);
  return found;
};
const expressions = (w: Widget) =>
  (w.properties.metrics ?? []).flatMap((line) => {
    const first = line[0] as { expression?: string } | string;
    return typeof first === 'object' && first.expression ? [first.expression] : [];
  });
/** The [namespace, metric name, …dimension values] of each plain metric line. */
const metricsOf = (w: Widget) =>
  (w.properties.metrics ?? [])
    .filter((line) => typeof line[0] === 'string')
    .map((line) => line.filter((part) => typeof part === 'string'));
const gpurent = (name: string) => ['gpurent', name, 'service', 'gpurent'];

describe('the operations dashboard', () => {
  it('shows spend in dollars per hour, by metric math over the metered micro-dollars', () => {
    const spend = widget('Spend rate ($ per hour)');
    expect(expressions(spend)).toEqual(['FILL(spent, 0) / 1000000 * 3600 / PERIOD(spent)']);
    expect(metricsOf(spend)).toEqual([gpurent('MeteredMicroUsd')]);
  });

  it('shows spend since the start of the UTC month, over a range that holds the month start', () => {
    const month = widget('Spend this month so far ($, UTC month)');
    expect(month.properties.start).toBe('-P32D');
    expect(expressions(month)).toEqual(
      expect.arrayContaining([
        'running - FILL(monthStart, REPEAT)',
        'IF(DATE(dollars) == 1 AND HOUR(dollars) == 0, running - dollars)',
        'RUNNING_SUM(dollars)',
        'FILL(spent, 0) / 1000000',
      ]),
    );
    expect(metricsOf(month)).toEqual([gpurent('MeteredMicroUsd')]);
  });

  it("shows the API's 4xx, 5xx and latency percentiles", () => {
    const apiId = `<${logicalIdOf(stack, stack.api.httpApi)}>`;
    expect(metricsOf(widget('API requests refused and failed / 5 min'))).toEqual([
      ['AWS/ApiGateway', '4xx', 'ApiId', apiId],
      ['AWS/ApiGateway', '5xx', 'ApiId', apiId],
    ]);
    const latency = widget('API latency (ms)');
    expect(metricsOf(latency)).toEqual(Array(3).fill(['AWS/ApiGateway', 'Latency', 'ApiId', apiId]));
    const stats = (latency.properties.metrics ?? []).map((line) => (line.at(-1) as { stat?: string }).stat);
    expect(stats).toEqual(['p50', 'p90', 'p99']);
  });

  it('shows the depth of every work queue, not only of the dead-letter queues', () => {
    const depths = metricsOf(widget('Queue depths (messages waiting)'));
    expect(depths).toEqual(
      stack.queues.all.map((queue) => [
        'AWS/SQS',
        'ApproximateNumberOfMessagesVisible',
        'QueueName',
        `<${logicalIdOf(stack, queue.queue)}>`,
      ]),
    );
  });

  it('shows spot interruptions and their replacements', () => {
    expect(metricsOf(widget('Spot interruptions and replacements / 5 min'))).toEqual([
      gpurent('ec2-event-interrupted'),
      gpurent('replace-replaced'),
      gpurent('replace-failed'),
    ]);
  });

  it("shows the reconciler's vanished instances and price changes, and scaling-group failures", () => {
    expect(metricsOf(widget('Reconciler and scaling groups / 5 min'))).toEqual([
      gpurent('VanishedInstancesEnded'),
      gpurent('SpotPriceChangesRecorded'),
      gpurent('ScalingGroupFailures'),
    ]);
  });

  it('shows the leases the reconciler repaired, by kind of repair', () => {
    expect(expressions(widget('Leases repaired by the reconciler / 5 min'))).toEqual([
      `SEARCH('{gpurent,service,repair} MetricName="LeasesRepaired"', 'Sum', 300)`,
    ]);
  });

  it("shows the fleet's GPU utilization from the CloudWatch agent's series", () => {
    expect(expressions(widget('Fleet GPU utilization (%)'))).toEqual([
      `AVG(SEARCH('{InstanceId,index} MetricName="nvidia_smi_utilization_gpu"', 'Average', 300))`,
    ]);
  });

  it("shows every alarm's state", () => {
    const alarms = widgets.filter((w) => w.type === 'alarm');
    expect(alarms).toHaveLength(1);
    expect(alarmCount).toBeGreaterThan(10);
    expect(alarms[0]?.properties.alarms).toHaveLength(alarmCount);
  });

  it('watches only gpurent metrics some function emits', () => {
    const names = widgets.flatMap((w) => [
      ...metricsOf(w)
        .filter((line) => line[0] === 'gpurent')
        .map((line) => line[1] as string),
      ...expressions(w).flatMap((e) =>
        e.includes('{gpurent,') ? [...e.matchAll(/MetricName="([^"]+)"/g)].map((m) => m[1] as string) : [],
      ),
    ]);
    expect(names.length).toBeGreaterThan(15);
    const emitters = [
      'functions/metering/handler.ts',
      'functions/reconciler/handler.ts',
      'functions/budget-evaluator/handler.ts',
      'shared/lambda/control-plane-metrics.ts',
      'shared/lambda/scaling-evaluation-metrics.ts',
    ]
      .map((file) => readFileSync(join(__dirname, '../..', file), 'utf8'))
      .join('\n');
    const byName = new Map(Object.entries(METRIC_NAMES).map(([key, name]) => [name as string, key]));
    for (const name of new Set(names)) {
      const key = byName.get(name);
      if (key) {
        expect(emitters, name).toMatch(new RegExp(`addMetric\\(\\s*METRIC_NAMES\\.${key}\\b`));
      } else {
        // The lease worker (through its command use case) and the interruption handler count outcomes, named by the same helpers.
        expect(name).toMatch(/^(provision|release|expire|replace|ec2-event)-[a-z-]+$/);
      }
    }
    for (const [file, helper] of [
      ['shared/usecases/lease-commands.ts', 'leaseCommandMetric('],
      ['functions/interruption-handler/handler.ts', 'ec2EventMetric('],
    ] as const) {
      expect(readFileSync(join(__dirname, '../..', file), 'utf8')).toContain(helper);
    }
  });
});
