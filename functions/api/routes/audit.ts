import { auditableMonth } from '../../../shared/domain/audit/audit-month';
import { hasCurrentShape, type MonthlyAudit } from '../../../shared/domain/audit/monthly-audit';
import { REPORT_CSP, renderAuditReport } from '../../../shared/domain/audit/report-page';
import { buildAudit } from '../../../shared/usecases/audit/build-audit';
import { type ApiEvent, type ApiResult, json, tenantOf } from '../http';
import type { ApiContext } from './context';

/**
 * The stored audit of the month (what the schedule announced), else one built
 * now; one stored in an earlier shape is built again, with today's figures.
 */
async function auditOf(event: ApiEvent, ctx: ApiContext): Promise<MonthlyAudit> {
  const tenantId = tenantOf(event);
  const nowMs = ctx.deps.now();
  const month = auditableMonth(event.pathParameters?.month ?? '', nowMs);
  const stored = await ctx.deps.audits.get(tenantId, month);
  return stored && hasCurrentShape(stored.audit)
    ? stored.audit
    : buildAudit(ctx.deps, tenantId, month, nowMs);
}

export async function getAudit(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  return json(200, await auditOf(event, ctx));
}

export async function getAuditReport(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  return {
    statusCode: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': REPORT_CSP },
    body: renderAuditReport(await auditOf(event, ctx)),
  };
}
