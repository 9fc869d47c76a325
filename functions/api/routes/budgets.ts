import {
  BUDGET_ACTIONS,
  BUDGET_BASES,
  BUDGET_NAME_PATTERN,
  type BudgetSettings,
  DEFAULT_THRESHOLDS,
  MAX_THRESHOLD_PERCENT,
  MIN_THRESHOLD_PERCENT,
  PROJECT_PATTERN,
} from '../../../shared/domain/budgets/budget';
import { isWholeMicroUsd, microToUsd, usdToMicro, WHOLE_MICRO_USD_RULE } from '../../../shared/domain/money';
import { BudgetNotFoundError } from '../../../shared/errors';
import {
  type BudgetStatus,
  measureBudgets,
  statusOfTenantBudgets,
} from '../../../shared/usecases/budgets/budget-status';
import { putBudget } from '../../../shared/usecases/budgets/put-budget';
import * as z from '../../../shared/zod';
import {
  type ApiEvent,
  type ApiResult,
  json,
  parseJsonBody,
  requireAdmin,
  tenantOf,
  validate,
} from '../http';
import {
  authErrors,
  errorResponse,
  instant,
  jsonContent,
  jsonSchema,
  micro,
  type OpenApiGroup,
  pathParameterDoc,
  ref,
  responseObject,
  usd,
} from '../openapi-parts';
import { pathParameter, pathValue } from '../path';
import type { Routes } from '../routing';
import type { ApiContext } from './context';

/** Limits stay far inside exact integer micro-dollars. */
export const MAX_MONTHLY_LIMIT_USD = 1_000_000_000;
const MAX_THRESHOLDS = 20;

export const putBudgetBody = z.strictObject({
  monthlyLimitUsd: z
    .number('must be a number of USD such as 2500 or 99.5')
    .check(
      z.positive('must be greater than 0'),
      z.lte(MAX_MONTHLY_LIMIT_USD, `must be at most ${MAX_MONTHLY_LIMIT_USD}`),
      z.refine(isWholeMicroUsd, WHOLE_MICRO_USD_RULE),
    ),
  project: z.optional(
    z
      .string()
      .check(
        z.regex(PROJECT_PATTERN, 'must be 1-64 lowercase letters, digits or hyphens, such as team-vision'),
      ),
  ),
  thresholds: z._default(
    z
      .array(
        z
          .number()
          .check(
            z.int('must be a whole percentage'),
            z.gte(MIN_THRESHOLD_PERCENT, `must be at least ${MIN_THRESHOLD_PERCENT}`),
            z.lte(MAX_THRESHOLD_PERCENT, `must be at most ${MAX_THRESHOLD_PERCENT}`),
          ),
      )
      .check(
        z.minLength(1, 'needs at least one percentage'),
        z.maxLength(MAX_THRESHOLDS, `may list at most ${MAX_THRESHOLDS} percentages`),
        z.refine(
          (list: number[]) => list.every((value, i) => i === 0 || value > (list[i - 1] as number)),
          'must be ascending without repeats, such as [50, 80, 100]',
        ),
      ),
    [...DEFAULT_THRESHOLDS],
  ),
  basis: z._default(z.enum(BUDGET_BASES), 'both'),
  action: z._default(z.enum(BUDGET_ACTIONS), 'notify'),
});

const budgetName = pathParameter(
  'name',
  BUDGET_NAME_PATTERN,
  'INVALID_BUDGET_NAME',
  (name) => `"${name}" is not a budget name (1-64 lowercase letters, digits or hyphens)`,
);

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const money = (micro: number, name: string) => ({
  [`${name}MicroUsd`]: micro,
  [`${name}Usd`]: microToUsd(micro),
});

/** The API's shape of a budget: its settings, this month's spend, forecast and alerts. */
export function budgetBody(status: BudgetStatus) {
  const { budget, forecast } = status;
  const records = Object.values(status.alerts);
  const thresholds = records.filter((record) => record.kind === 'threshold');
  const action = records.find((record) => record.kind === 'action');
  return {
    name: budget.name,
    tenantId: budget.tenantId,
    project: budget.project,
    monthlyLimitUsd: microToUsd(budget.limitMicroUsd),
    limitMicroUsd: budget.limitMicroUsd,
    thresholds: budget.thresholds,
    basis: budget.basis,
    action: budget.action,
    revision: budget.revision,
    createdAt: iso(budget.createdAtMs),
    updatedAt: iso(budget.updatedAtMs),
    month: status.month,
    ...money(forecast.spendMicroUsd, 'spend'),
    ...money(forecast.microUsd, 'forecast'),
    percentUsed: Math.floor((forecast.spendMicroUsd * 10_000) / budget.limitMicroUsd) / 100,
    forecastMethod: {
      description: 'spend so far + the run rate of running leases now × hours left in the month (UTC)',
      ...money(forecast.runRateMicroUsdPerHour, 'runRatePerHour'),
      hoursLeft: Math.round((forecast.secondsLeft / 3600) * 100) / 100,
    },
    thresholdsCrossed: thresholds
      .sort(
        (a, b) => (a.threshold ?? 0) - (b.threshold ?? 0) || String(a.basis).localeCompare(String(b.basis)),
      )
      .map((record) => ({
        threshold: record.threshold,
        basis: record.basis,
        crossedAt: iso(record.claimedAtMs),
        ...money(record.valueMicroUsd, 'value'),
        alertId: record.alertId,
        sentAt: iso(record.sentAtMs),
      })),
    alertsSent: records.filter((record) => record.sentAtMs !== undefined).length,
    actionTaken: action
      ? { action: budget.action, at: iso(action.claimedAtMs), sentAt: iso(action.sentAtMs) }
      : undefined,
  };
}

export async function putBudgetRoute(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const name = pathValue(event, budgetName);
  const body = validate(putBudgetBody, parseJsonBody(event), 'body');
  const settings: BudgetSettings = {
    limitMicroUsd: usdToMicro(body.monthlyLimitUsd),
    project: body.project,
    thresholds: body.thresholds,
    basis: body.basis,
    action: body.action,
  };
  const result = await putBudget(ctx.deps, tenantId, name, settings);
  return json(result.created ? 201 : 200, { ...budgetBody(result.status), rearmed: result.rearmed });
}

export async function listBudgets(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const budgets = await ctx.deps.budgets.list(tenantId);
  const statuses = await statusOfTenantBudgets(ctx.deps, tenantId, budgets);
  return json(200, { budgets: statuses.map(budgetBody) });
}

export async function getBudget(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const name = pathValue(event, budgetName);
  const budget = await ctx.deps.budgets.get(tenantId, name);
  if (!budget) throw new BudgetNotFoundError(name);
  const [status] = await statusOfTenantBudgets(ctx.deps, tenantId, [budget]);
  return json(200, budgetBody(status as BudgetStatus));
}

export async function deleteBudget(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const name = pathValue(event, budgetName);
  if (!(await ctx.deps.budgets.delete(tenantId, name))) throw new BudgetNotFoundError(name);
  return { statusCode: 204 };
}

/** Every tenant's budgets, for operators (`cognito:groups` holds `admin`). */
export async function listAllBudgets(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  const budgets = await ctx.deps.budgets.all();
  const statuses = await measureBudgets(ctx.deps, budgets, ctx.deps.leases.openInstances(), ctx.deps.now());
  return json(200, {
    budgets: statuses
      .map(budgetBody)
      .sort((a, b) => a.tenantId.localeCompare(b.tenantId) || a.name.localeCompare(b.name)),
  });
}

export const budgetRoutes = {
  'GET /v1/budgets': { handle: listBudgets },
  'PUT /v1/budgets/{name}': { handle: putBudgetRoute },
  'GET /v1/budgets/{name}': { handle: getBudget },
  'DELETE /v1/budgets/{name}': { handle: deleteBudget },
  'GET /v1/admin/budgets': { handle: listAllBudgets },
} as const satisfies Routes;

export const budgetOpenApi = (): OpenApiGroup<keyof typeof budgetRoutes> => {
  const nameParameter = pathParameterDoc(budgetName);
  const budgetErrors = {
    '400': errorResponse('INVALID_BUDGET_NAME'),
    '404': errorResponse('BUDGET_NOT_FOUND'),
    ...authErrors,
  };
  return {
    tag: { name: 'Budgets', description: 'Monthly budgets: spend, forecast, alerts and the action at 100%' },
    schemas: {
      PutBudgetRequest: jsonSchema(putBudgetBody),
      Budget: responseObject(
        {
          name: { type: 'string' },
          tenantId: { type: 'string' },
          project: {
            type: 'string',
            description: 'Only leases with this label count; absent: the whole tenant',
          },
          monthlyLimitUsd: usd,
          limitMicroUsd: micro,
          thresholds: { type: 'array', items: { type: 'integer' }, description: 'Percent of the limit' },
          basis: { type: 'string', enum: BUDGET_BASES },
          action: { type: 'string', enum: BUDGET_ACTIONS },
          revision: { type: 'integer' },
          createdAt: instant,
          updatedAt: instant,
          month: {
            type: 'string',
            pattern: '^\\d{4}-\\d{2}$',
            description: 'The month (UTC) the figures are for',
          },
          spendMicroUsd: micro,
          spendUsd: usd,
          forecastMicroUsd: micro,
          forecastUsd: usd,
          percentUsed: { type: 'number', description: 'Spend so far as a percentage of the limit' },
          forecastMethod: responseObject({
            description: { type: 'string' },
            runRatePerHourMicroUsd: micro,
            runRatePerHourUsd: usd,
            hoursLeft: { type: 'number' },
          }),
          thresholdsCrossed: {
            type: 'array',
            items: responseObject(
              {
                threshold: { type: 'integer' },
                basis: { type: 'string', enum: ['actual', 'forecast'] },
                crossedAt: instant,
                valueMicroUsd: micro,
                valueUsd: usd,
                alertId: {
                  type: 'string',
                  description: 'The SNS message attribute alertId; deduplicate on it',
                },
                sentAt: {
                  ...instant,
                  description: 'Absent while the alert is claimed but not yet on the topic',
                },
              },
              ['sentAt'],
            ),
          },
          alertsSent: { type: 'integer' },
          actionTaken: responseObject(
            { action: { type: 'string', enum: BUDGET_ACTIONS }, at: instant, sentAt: instant },
            ['sentAt'],
          ),
          rearmed: {
            type: 'array',
            items: { type: 'string' },
            description: 'PUT only: the alerts of this month the change armed again',
          },
        },
        ['project', 'actionTaken', 'rearmed'],
        {
          description:
            'A monthly budget with this month’s spend (from the spend counters metering keeps), forecast and alerts.',
        },
      ),
    },
    operations: {
      'GET /v1/budgets': {
        operationId: 'listBudgets',
        summary: "The tenant's budgets with this month's spend, forecast and alerts",
        description:
          "Every budget of the tenant, each measured now: this month's spend from the spend counters, the forecast to the month's end and the alerts sent.",
        responses: {
          '200': {
            description: 'Budgets',
            content: jsonContent(responseObject({ budgets: { type: 'array', items: ref('Budget') } })),
          },
          ...authErrors,
        },
      },
      'PUT /v1/budgets/{name}': {
        operationId: 'putBudget',
        summary: 'Create or replace a monthly budget',
        description:
          'Alerts go to the budget alerts SNS topic once per month, threshold and basis. Raising the limit above the spend arms the thresholds no longer crossed again. `action` applies once actual spend reaches 100%.',
        parameters: [nameParameter],
        requestBody: { required: true, content: jsonContent(ref('PutBudgetRequest')) },
        responses: {
          '200': {
            description: 'Replaced; `rearmed` lists the alerts the change armed again',
            content: jsonContent(ref('Budget')),
          },
          '201': { description: 'Created', content: jsonContent(ref('Budget')) },
          '400': errorResponse('VALIDATION_FAILED, INVALID_BUDGET_NAME, INVALID_JSON or BODY_REQUIRED'),
          '409': errorResponse('BUDGET_CHANGED: changed concurrently; retry'),
          ...authErrors,
        },
      },
      'GET /v1/budgets/{name}': {
        operationId: 'getBudget',
        summary: 'One budget',
        description: "The budget with this month's spend, forecast and the alerts sent.",
        parameters: [nameParameter],
        responses: {
          '200': { description: 'The budget', content: jsonContent(ref('Budget')) },
          ...budgetErrors,
        },
      },
      'DELETE /v1/budgets/{name}': {
        operationId: 'deleteBudget',
        summary: 'Delete a budget (its alerts stop; spend counters stay)',
        description: 'Removes the budget; no further alert or action comes from it. Spend is still counted.',
        parameters: [nameParameter],
        responses: { '204': { description: 'Deleted' }, ...budgetErrors },
      },
      'GET /v1/admin/budgets': {
        operationId: 'listAllBudgets',
        summary: "Every tenant's budgets (operators: the token's cognito:groups must include admin)",
        description: 'For operators: the budgets of every tenant, measured now, by tenant and name.',
        responses: {
          '200': {
            description: 'Budgets of all tenants',
            content: jsonContent(responseObject({ budgets: { type: 'array', items: ref('Budget') } })),
          },
          '403': errorResponse('ADMIN_REQUIRED or TENANT_CLAIM_MISSING'),
        },
      },
    },
  };
};
