import { Duration, Tags } from 'aws-cdk-lib';
import {
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  SingleValueWidget,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { DeadLetteredQueue } from './queues';

/** Namespace and service dimension of the Powertools metrics every function emits. */
export const METRICS_NAMESPACE = 'gpurent';
export const METRICS_SERVICE = 'gpurent';

/** A Powertools metric of the gpurent functions (the default dimension set: `service`). */
export function gpurentMetric(metricName: string, statistic: string, period = Duration.minutes(1)): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service: METRICS_SERVICE },
    statistic,
    period,
  });
}

/** Every series of a metric emitted with extra dimensions (one line per mode and region, per code, …). */
function seriesOf(metricName: string, dimensions: readonly string[], statistic: string, period: Duration) {
  const schema = [METRICS_NAMESPACE, 'service', ...dimensions].join(',');
  return new MathExpression({
    expression: `SEARCH('{${schema}} MetricName="${metricName}"', '${statistic}', ${period.toSeconds()})`,
    usingMetrics: {},
    label: '',
    period,
  });
}

export interface OperationsDashboardProps {
  /** Every function of the stack, by name: a widget line each for errors, throttles and duration. */
  readonly functions: Readonly<Record<string, IFunction>>;
  /** Every work queue of the stack: backlog age and dead-letter depth. */
  readonly queues: readonly DeadLetteredQueue[];
}

/**
 * The operators' CloudWatch dashboard: leases and GPUs, spend, provisioning,
 * metering, budgets, queues and functions. Built from the stack's lists of
 * functions and queues, so what is added to them shows up here.
 */
export class OperationsDashboard extends Construct {
  public readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const fiveMinutes = Duration.minutes(5);
    const functions = Object.entries(props.functions);
    const perFunction = (label: string, metric: (fn: IFunction) => IMetric) =>
      new GraphWidget({
        title: label,
        width: 8,
        left: functions.map(([name, fn]) => withLabel(metric(fn), name)),
      });

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: 'gpurent-operations',
      defaultInterval: Duration.hours(3),
      widgets: [
        [
          new TextWidget({
            markdown:
              "# gpurent operations\nLeases, GPUs and spend from the functions' Powertools metrics (namespace `gpurent`); queues and functions from AWS/SQS and AWS/Lambda. Alarms go to the operator alerts topic.",
            width: 24,
            height: 2,
          }),
        ],
        [
          new GraphWidget({
            title: 'Leases by state',
            width: 8,
            left: [withLabel(gpurentMetric('RunningLeases', 'Maximum'), 'running (open bills)')],
            right: [
              withLabel(gpurentMetric('provision-running', 'Sum', fiveMinutes), '→ RUNNING / 5 min'),
              withLabel(gpurentMetric('release-released', 'Sum', fiveMinutes), '→ RELEASED / 5 min'),
              withLabel(gpurentMetric('provision-failed', 'Sum', fiveMinutes), '→ FAILED / 5 min'),
              withLabel(gpurentMetric('expire-expired', 'Sum', fiveMinutes), 'expired / 5 min'),
            ],
          }),
          new GraphWidget({
            title: 'GPUs by mode and region',
            width: 8,
            stacked: true,
            left: [seriesOf('RunningGpus', ['mode', 'region'], 'Maximum', Duration.minutes(1))],
          }),
          new GraphWidget({
            title: 'Spend rate (micro-dollars metered per minute)',
            width: 8,
            left: [withLabel(gpurentMetric('MeteredMicroUsd', 'Sum'), 'µ$ / min')],
          }),
        ],
        [
          new GraphWidget({
            title: 'Time to RUNNING (ms)',
            width: 8,
            left: ['p50', 'p90', 'Maximum'].map((statistic) =>
              withLabel(gpurentMetric('TimeToRunning', statistic, fiveMinutes), statistic),
            ),
          }),
          new GraphWidget({
            title: 'Launch failures by mode and code',
            width: 8,
            left: [seriesOf('LaunchFailures', ['code', 'mode'], 'Sum', fiveMinutes)],
          }),
          new GraphWidget({
            title: 'Metering lag (s behind the tick)',
            width: 8,
            left: [withLabel(gpurentMetric('MeteringLag', 'Maximum'), 'lag')],
          }),
        ],
        [
          new GraphWidget({
            title: 'Scaling decisions',
            width: 8,
            left: [seriesOf('ScalingDecisions', ['direction'], 'Sum', fiveMinutes)],
          }),
          new GraphWidget({
            title: 'Budget alerts and actions',
            width: 8,
            left: [
              withLabel(gpurentMetric('BudgetAlertsSent', 'Sum', fiveMinutes), 'alerts sent'),
              withLabel(gpurentMetric('BudgetActionsTaken', 'Sum', fiveMinutes), 'actions taken'),
            ],
          }),
          new SingleValueWidget({
            title: 'Orphans terminated by the reconciler (24 h)',
            width: 8,
            metrics: [withLabel(gpurentMetric('OrphansTerminated', 'Sum', Duration.days(1)), 'orphans')],
          }),
        ],
        [
          new GraphWidget({
            title: 'Dead-letter queue depths',
            width: 12,
            left: props.queues.map((queue) => withLabel(queue.metricDeadLetterDepth(), queue.definition.id)),
          }),
          new GraphWidget({
            title: 'Oldest message age (s)',
            width: 12,
            left: props.queues.map((queue) =>
              withLabel(queue.metricApproximateAgeOfOldestMessage(), queue.definition.id),
            ),
          }),
        ],
        [
          perFunction('Function errors', (fn) => fn.metricErrors({ period: fiveMinutes, statistic: 'Sum' })),
          perFunction('Function throttles', (fn) =>
            fn.metricThrottles({ period: fiveMinutes, statistic: 'Sum' }),
          ),
          perFunction('Function duration p90 (ms)', (fn) =>
            fn.metricDuration({ period: fiveMinutes, statistic: 'p90' }),
          ),
        ],
      ],
    });
    // CloudFormation's dashboard resource takes tags only in recent schemas (cfn-lint refuses them):
    // the stack-wide tags stop here.
    Tags.of(this.dashboard).remove('project');
  }
}

function withLabel(metric: IMetric, label: string): IMetric {
  return metric instanceof Metric || metric instanceof MathExpression ? metric.with({ label }) : metric;
}
