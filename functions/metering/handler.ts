import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, ScheduledEvent, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { METRIC_NAMES } from '../../shared/metric-names';
import { meteringWorkSchema } from '../../shared/ports/metering-work';
import {
  type ChargeSummary,
  meterDeferred,
  meterOpenInstances,
  type TickSummary,
} from '../../shared/usecases/metering';
import { recordIdleReserved } from '../../shared/usecases/reserved-slots';
import { detectSpendAnomalies } from '../../shared/usecases/spend-anomalies';
import { meteringWiring } from './wiring';

const { overflow, region: homeRegion, ...stores } = buildPorts(meteringWiring);
const processor = new BatchProcessor(EventType.SQS);

function record(kind: string, summary: ChargeSummary): void {
  logger.info(`Metering ${kind}`, { ...summary });
  metrics.addMetric('InstancesMetered', 'Count', summary.charged);
  metrics.addMetric(METRIC_NAMES.meteredMicroUsd, 'Count', summary.microUsd);
  metrics.addMetric('InstancesDeferred', 'Count', summary.deferred);
}

/** The fleet as billed at a tick (the whole open list, so only the scheduled run reports it). */
function recordFleet(summary: TickSummary, time: string): void {
  metrics.addMetric(METRIC_NAMES.runningLeases, 'Count', summary.runningLeases);
  // How far behind the clock the bills are: late or slow ticks show here, missing ticks as no data.
  metrics.addMetric(METRIC_NAMES.meteringLag, 'Seconds', Math.max(0, Date.now() - Date.parse(time)) / 1000);
  // Each instance in its own region: GPU regions other than the home one show as themselves.
  for (const { mode, region, gpus } of summary.fleet) {
    const fleet = metrics.singleMetric();
    fleet.addDimensions({ mode, region: region ?? homeRegion });
    fleet.addMetric(METRIC_NAMES.runningGpus, 'Count', gpus);
  }
}

/** A share of a run another invocation deferred: charged up to that run's instant. */
async function meterWork(sqsRecord: SQSRecord): Promise<void> {
  const work = meteringWorkSchema.parse(JSON.parse(sqsRecord.body));
  record('deferred work', await meterDeferred(stores, work.atMs, work.instances));
}

const isSqs = (event: ScheduledEvent | SQSEvent): event is SQSEvent => 'Records' in event;

/**
 * Every minute: charge each open instance up to the tick's scheduled time; what
 * does not fit this invocation's time goes to the metering work queue, which
 * feeds this same function. Then the reserved GPUs nobody used in the window are
 * recorded (paid for all the same, for the audit), and every tenant's and
 * project's spend rate goes through its anomaly baseline (one alert per episode).
 */
export const handler = observed(async (event: ScheduledEvent | SQSEvent, context: Context) => {
  if (isSqs(event)) return processPartialResponse(event, meterWork, processor, { context });
  const summary = await meterOpenInstances(stores, Date.parse(event.time), {
    remainingMs: () => context.getRemainingTimeInMillis(),
    overflow,
  });
  recordFleet(summary, event.time);
  const idle = await recordIdleReserved(stores, Date.parse(event.time));
  metrics.addMetric('IdleReservedGpuSeconds', 'Count', idle.idleGpuSeconds);
  const anomalies = await detectSpendAnomalies(stores, Date.parse(event.time));
  metrics.addMetric('SpendAnomalyAlerts', 'Count', anomalies.alerts);
  record('tick', summary);
  return { ...summary, idle, anomalies };
});
