import { monthBefore } from '../../shared/domain/audit/audit-month';
import { logger, metrics, observed } from '../../shared/lambda/observability';
import { buildPorts } from '../../shared/lambda/port-factory';
import { announceMonthlyAudits } from '../../shared/usecases/audit/announce-audits';
import * as z from '../../shared/zod';
import { auditWiring } from './wiring';

const deps = buildPorts(auditWiring);

/** The schedule's Scheduled Event: `time` (the scheduled instant) names the month before as the one to audit. */
const trigger = z.object({ time: z.iso.datetime({ offset: true }) });

export const handler = observed(async (event: unknown) => {
  const atMs = Date.parse(trigger.parse(event).time);
  const summary = await announceMonthlyAudits(deps, monthBefore(atMs), atMs);
  logger.info('Monthly audits', { ...summary });
  metrics.addMetric('AuditsStored', 'Count', summary.stored);
  metrics.addMetric('AuditsAnnounced', 'Count', summary.announced);
  return summary;
});
