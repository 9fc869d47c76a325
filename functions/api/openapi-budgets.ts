import { BUDGET_ACTIONS, BUDGET_BASES } from '../../shared/domain/budgets/budget';
import * as z from '../../shared/zod';
import { authErrors, errorResponse, instant, jsonContent, micro, ref, usd } from './openapi-parts';
import { putBudgetBody } from './routes/budgets';

const nameParameter = {
  name: 'name',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[a-z0-9-]{1,64}$' },
};

export const budgetSchemas = {
  PutBudgetRequest: z.toJSONSchema(putBudgetBody, { target: 'draft-2020-12', io: 'input' }),
  Budget: {
    type: 'object',
    description:
      'A monthly budget with this month’s spend (from the spend counters metering keeps), forecast and alerts.',
    properties: {
      name: { type: 'string' },
      tenantId: { type: 'string' },
      project: { type: 'string', description: 'Only leases with this label count; absent: the whole tenant' },
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
      forecastMethod: {
        type: 'object',
        properties: {
          description: { type: 'string' },
          runRatePerHourMicroUsd: micro,
          runRatePerHourUsd: usd,
          hoursLeft: { type: 'number' },
        },
      },
      thresholdsCrossed: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            threshold: { type: 'integer' },
            basis: { type: 'string', enum: ['actual', 'forecast'] },
            crossedAt: instant,
            valueMicroUsd: micro,
            valueUsd: usd,
            alertId: { type: 'string', description: 'The SNS message attribute alertId; deduplicate on it' },
            sentAt: { ...instant, description: 'Absent while the alert is claimed but not yet on the topic' },
          },
        },
      },
      alertsSent: { type: 'integer' },
      actionTaken: {
        type: 'object',
        properties: { action: { type: 'string', enum: BUDGET_ACTIONS }, at: instant, sentAt: instant },
      },
    },
  },
};

const budgetErrors = {
  '400': errorResponse('INVALID_BUDGET_NAME'),
  '404': errorResponse('BUDGET_NOT_FOUND'),
  ...authErrors,
};

export const budgetPaths = {
  '/v1/budgets': {
    get: {
      summary: "The tenant's budgets with this month's spend, forecast and alerts",
      responses: {
        '200': {
          description: 'Budgets',
          content: jsonContent({
            type: 'object',
            properties: { budgets: { type: 'array', items: ref('Budget') } },
          }),
        },
        ...authErrors,
      },
    },
  },
  '/v1/budgets/{name}': {
    put: {
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
    get: {
      summary: 'One budget',
      parameters: [nameParameter],
      responses: {
        '200': { description: 'The budget', content: jsonContent(ref('Budget')) },
        ...budgetErrors,
      },
    },
    delete: {
      summary: 'Delete a budget (its alerts stop; spend counters stay)',
      parameters: [nameParameter],
      responses: { '204': { description: 'Deleted' }, ...budgetErrors },
    },
  },
  '/v1/admin/budgets': {
    get: {
      summary: "Every tenant's budgets (operators: the token's cognito:groups must include admin)",
      responses: {
        '200': {
          description: 'Budgets of all tenants',
          content: jsonContent({
            type: 'object',
            properties: { budgets: { type: 'array', items: ref('Budget') } },
          }),
        },
        '401': authErrors['401'],
        '403': errorResponse('ADMIN_REQUIRED or TENANT_CLAIM_MISSING'),
      },
    },
  },
};
