import { Duration, Tags } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IAlarm,
  type IMetric,
  MathExpression,
  Metric,
  SingleValueWidget,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { NVIDIA_SMI_METRICS } from '../../shared/domain/gpu-telemetry';
import { MICRO_PER_USD } from '../../shared/domain/money';
import { ec2EventMetric, leaseCommandMetric, METRIC_NAMES } from '../../shared/metric-names';
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
  /** Every work queue of the stack: depth, backlog age and dead-letter depth. */
  readonly queues: readonly DeadLetteredQueue[];
  /** The tenant API: its 4xx, 5xx and latency. */
  readonly api: IHttpApi;
  /** Every operator alarm of the stack: their states at a glance. */
  readonly alarms: readonly IAlarm[];
}

/**
 * Dollars metered per hour, whatever the graph's period: the per-period sum of
 * micro-dollars scaled to an hour (PERIOD is the period in seconds).
 */
function spendPerHour(): MathExpression {
  return new MathExpression({
    expression: `FILL(spent, 0) / ${MICRO_PER_USD} * 3600 / PERIOD(spent)`,
    usingMetrics: { spent: gpurentMetric(METRIC_NAMES.meteredMicroUsd, 'Sum', Duration.minutes(5)) },
    label: '$ / h',
    period: Duration.minutes(5),
  });
}

/**
 * Dollars metered since the start of the current UTC month, hour by hour: the
 * running sum less its value where the month began (the hour whose DATE is 1
 * and HOUR 0), carried forward. The graph needs the month's start in range, so
 * the widget looks back 32 days.
 */
function spendMonthToDate(): MathExpression {
  const hour = Duration.hours(1);
  const dollars = new MathExpression({
    expression: `FILL(spent, 0) / ${MICRO_PER_USD}`,
    usingMetrics: { spent: gpurentMetric(METRIC_NAMES.meteredMicroUsd, 'Sum', hour) },
    period: hour,
  });
  const running = new MathExpression({
    expression: 'RUNNING_SUM(dollars)',
    usingMetrics: { dollars },
    period: hour,
  });
  const monthStart = new MathExpression({
    expression: 'IF(DATE(dollars) == 1 AND HOUR(dollars) == 0, running - dollars)',
    usingMetrics: { dollars, running },
    period: hour,
  });
  return new MathExpression({
    expression: 'running - FILL(monthStart, REPEAT)',
    usingMetrics: { running, monthStart },
    label: '$ this month',
    period: hour,
  });
}

/**
 * The operators' CloudWatch dashboard: alarm states, leases and GPUs, spend,
 * GPU utilization, interruptions, the API, provisioning, metering, budgets,
 * queues and functions. Built from the stack's lists of
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
              "# gpurent operations\nLeases, GPUs and spend from the functions' Powertools metrics (namespace `gpurent`); GPU utilization from the CloudWatch agent (`CWAgent`); the API, queues and functions from AWS/ApiGateway, AWS/SQS and AWS/Lambda. Alarms go to the operator alerts topic.",
            width: 24,
            height: 2,
          }),
        ],
        [new AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 24, height: 3 })],
        [
          new GraphWidget({
            title: 'Leases by state',
            width: 8,
            left: [withLabel(gpurentMetric(METRIC_NAMES.runningLeases, 'Maximum'), 'running (open bills)')],
            right: [
              countPer5Minutes(leaseCommandMetric('provision', 'running'), '→ RUNNING / 5 min'),
              countPer5Minutes(leaseCommandMetric('release', 'released'), '→ RELEASED / 5 min'),
              countPer5Minutes(leaseCommandMetric('provision', 'failed'), '→ FAILED / 5 min'),
              countPer5Minutes(leaseCommandMetric('expire', 'expired'), 'expired / 5 min'),
            ],
          }),
          new GraphWidget({
            title: 'GPUs by mode and region',
            width: 8,
            stacked: true,
            left: [seriesOf(METRIC_NAMES.runningGpus, ['mode', 'region'], 'Maximum', Duration.minutes(1))],
          }),
          new GraphWidget({
            title: 'Spend rate ($ per hour)',
            width: 8,
            left: [spendPerHour()],
          }),
        ],
        [
          new GraphWidget({
            title: 'Spend this month so far ($, UTC month)',
            width: 8,
            start: '-P32D',
            left: [spendMonthToDate()],
          }),
          new GraphWidget({
            title: 'Fleet GPU utilization (%)',
            width: 8,
            leftYAxis: { min: 0, max: 100, showUnits: false },
            left: [fleetGpuUtilization()],
          }),
          new GraphWidget({
            title: 'Spot interruptions and replacements / 5 min',
            width: 8,
            left: [
              countPer5Minutes(ec2EventMetric('interrupted'), 'interrupted'),
              countPer5Minutes(leaseCommandMetric('replace', 'replaced'), 'replaced'),
              countPer5Minutes(leaseCommandMetric('replace', 'failed'), 'replacement failed'),
            ],
          }),
        ],
        [
          new GraphWidget({
            title: 'API requests refused and failed / 5 min',
            width: 8,
            left: [
              withLabel(props.api.metricClientError({ period: fiveMinutes, statistic: 'Sum' }), '4xx'),
              withLabel(props.api.metricServerError({ period: fiveMinutes, statistic: 'Sum' }), '5xx'),
            ],
          }),
          new GraphWidget({
            title: 'API latency (ms)',
            width: 8,
            left: ['p50', 'p90', 'p99'].map((statistic) =>
              withLabel(props.api.metricLatency({ period: fiveMinutes, statistic }), statistic),
            ),
          }),
          new GraphWidget({
            title: 'Reconciler and scaling groups / 5 min',
            width: 8,
            left: [
              countPer5Minutes(METRIC_NAMES.vanishedInstancesEnded, 'vanished instances ended'),
              countPer5Minutes(METRIC_NAMES.spotPriceChangesRecorded, 'spot price changes'),
              countPer5Minutes(METRIC_NAMES.scalingGroupFailures, 'scaling group failures'),
            ],
          }),
        ],
        [
          new GraphWidget({
            title: 'Time to RUNNING (ms)',
            width: 8,
            left: ['p50', 'p90', 'Maximum'].map((statistic) =>
              withLabel(gpurentMetric(METRIC_NAMES.timeToRunning, statistic, fiveMinutes), statistic),
            ),
          }),
          new GraphWidget({
            title: 'Launch failures by mode and code',
            width: 8,
            left: [seriesOf(METRIC_NAMES.launchFailures, ['code', 'mode'], 'Sum', fiveMinutes)],
          }),
          new GraphWidget({
            title: 'Metering lag (s behind the tick)',
            width: 8,
            left: [withLabel(gpurentMetric(METRIC_NAMES.meteringLag, 'Maximum'), 'lag')],
          }),
        ],
        [
          new GraphWidget({
            title: 'Scaling decisions',
            width: 8,
            left: [seriesOf(METRIC_NAMES.scalingDecisions, ['direction'], 'Sum', fiveMinutes)],
          }),
          new GraphWidget({
            title: 'Budget alerts and actions',
            width: 8,
            left: [
              countPer5Minutes(METRIC_NAMES.budgetAlertsSent, 'alerts sent'),
              countPer5Minutes(METRIC_NAMES.budgetActionsTaken, 'actions taken'),
            ],
          }),
          new SingleValueWidget({
            title: 'Orphans terminated by the reconciler (24 h)',
            width: 8,
            metrics: [
              withLabel(gpurentMetric(METRIC_NAMES.orphansTerminated, 'Sum', Duration.days(1)), 'orphans'),
            ],
          }),
        ],
        [
          // Leases no event or command moved on: each line a kind of repair (LEASE_REPAIRS). Any at all
          // means a command, an event or a delivery was lost; the reconciler's log names each lease.
          new GraphWidget({
            title: 'Leases repaired by the reconciler / 5 min',
            width: 24,
            left: [seriesOf(METRIC_NAMES.leasesRepaired, ['repair'], 'Sum', fiveMinutes)],
          }),
        ],
        [
          new GraphWidget({
            title: 'Queue depths (messages waiting)',
            width: 8,
            left: props.queues.map((queue) => withLabel(queue.metricDepth(), queue.definition.id)),
          }),
          new GraphWidget({
            title: 'Dead-letter queue depths',
            width: 8,
            left: props.queues.map((queue) => withLabel(queue.metricDeadLetterDepth(), queue.definition.id)),
          }),
          new GraphWidget({
            title: 'Oldest message age (s)',
            width: 8,
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

/**
 * The mean utilization of every GPU that sent telemetry (the CloudWatch agent's
 * series per instance and GPU, each in its lease's own namespace: the search
 * names the dimensions, not a namespace).
 */
function fleetGpuUtilization(): MathExpression {
  return new MathExpression({
    expression: `AVG(SEARCH('{InstanceId,index} MetricName="${NVIDIA_SMI_METRICS.utilization}"', 'Average', 300))`,
    usingMetrics: {},
    label: 'mean of all GPUs',
    period: Duration.minutes(5),
  });
}

/** How many times `metricName` was counted in each 5 minutes, labelled. */
function countPer5Minutes(metricName: string, label: string): IMetric {
  return withLabel(gpurentMetric(metricName, 'Sum', Duration.minutes(5)), label);
}

function withLabel(metric: IMetric, label: string): IMetric {
  return metric instanceof Metric || metric instanceof MathExpression ? metric.with({ label }) : metric;
}
