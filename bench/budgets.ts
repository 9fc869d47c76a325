/**
 * Budget evaluation at scale: one round over 10,000 budgets of 2,000 tenants in
 * DynamoDB Local, as the evaluator runs it (budgets scanned in parallel
 * segments, spend counters batch-read, open instances read once), against a
 * naive round in the same run that reads each budget and each of its counters
 * with its own request, one after the other. Both rounds judge and alert with
 * the same code (`settleBudget`), on identical seeded data in separate tables.
 */
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startEmulators } from '../local/emulators';
import { prepareFunctionEnvironment } from '../local/environment';
import { DynamoDbBudgetRepository } from '../shared/adapters/dynamodb-budget-repository';
import { budgetKey, METERING_OPEN, spendKey, tenantKey } from '../shared/adapters/dynamodb-keys';
import { DynamoDbLeaseRepository } from '../shared/adapters/dynamodb-lease-repository';
import { DynamoDbSpendCounters } from '../shared/adapters/dynamodb-spend-counters';
import { EventBridgePublisher } from '../shared/adapters/eventbridge-publisher';
import { SnsBudgetNotifier } from '../shared/adapters/sns-budget-notifier';
import { SqsLeaseCommandQueue } from '../shared/adapters/sqs-lease-command-queue';
import type { Budget } from '../shared/domain/budgets/budget';
import { forecastMonthEnd } from '../shared/domain/budgets/forecast';
import { runRates } from '../shared/domain/budgets/run-rate';
import { budgetScope, monthOf } from '../shared/domain/spend';
import {
  type BudgetEvaluationDeps,
  evaluateBudgets,
  settleBudget,
} from '../shared/usecases/budgets/evaluate-budgets';
import type { BenchmarkResult } from './support/benchmark';
import { countingClient, writeAll } from './support/dynamodb';
import { seededRandom } from './support/random';
import { round } from './support/stats';

const BUDGETS = 10_000;
const TENANTS = 2_000;
const OPEN_INSTANCES = 2_000;
/** Share of budgets whose spend crosses a threshold not yet alerted: a busy round. */
const CROSSING_SHARE = 0.01;
const AT_MS = Date.parse('2031-03-15T12:00:00Z');
const MONTH = monthOf(AT_MS);

/** 10,000 budgets, 5 per tenant (one tenant-wide, four per project), their counters and a running fleet. */
async function seed(documents: DynamoDBDocumentClient, env: Record<string, string>) {
  const random = seededRandom(42);
  const budgets: Record<string, unknown>[] = [];
  const counters = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < BUDGETS; i += 1) {
    const tenantId = `tenant-${i % TENANTS}`;
    const slot = Math.floor(i / TENANTS);
    const project = slot === 0 ? undefined : `project-${slot}`;
    const limitMicroUsd = 1_000_000_000;
    const budget: Budget = {
      tenantId,
      name: `budget-${slot}`,
      limitMicroUsd,
      project,
      thresholds: [50, 80, 100],
      basis: 'actual',
      action: 'notify',
      revision: 1,
      createdAtMs: AT_MS - 86_400_000,
      updatedAtMs: AT_MS - 86_400_000,
      alerts: {},
    };
    budgets.push({ pk: tenantKey(tenantId), sk: budgetKey(budget.name), ...budget });
    // Spend under the first threshold, except for the budgets that cross one this round.
    const crossing = random() < CROSSING_SHARE;
    const spend = Math.floor(limitMicroUsd * (crossing ? 0.5 + random() * 0.2 : random() * 0.45));
    const sk = spendKey(MONTH, budgetScope(project));
    counters.set(`${tenantId}/${sk}`, {
      pk: tenantKey(tenantId),
      sk,
      microUsd: spend,
      tenantId,
      month: MONTH,
    });
  }
  const instances = Array.from({ length: OPEN_INSTANCES }, (_, i) => ({
    pk: tenantKey(`tenant-${i % TENANTS}`),
    sk: `INSTANCE#lease-${i}#i-${i}`,
    tenantId: `tenant-${i % TENANTS}`,
    leaseId: `lease-${i}`,
    instanceId: `i-${i}`,
    priceMicroUsdPerHour: 1_006_000,
    meteringOpen: METERING_OPEN,
  }));
  await writeAll(documents, env.BUDGETS_TABLE_NAME ?? '', budgets);
  await writeAll(documents, env.SPEND_TABLE_NAME ?? '', [...counters.values()]);
  await writeAll(documents, env.LEASES_TABLE_NAME ?? '', instances);
  return budgets.map((item) => ({ tenantId: String(item.tenantId), name: String(item.name) }));
}

function depsOf(documents: DynamoDBDocumentClient, env: Record<string, string>): BudgetEvaluationDeps {
  return {
    leases: new DynamoDbLeaseRepository(documents, env.LEASES_TABLE_NAME ?? ''),
    spend: new DynamoDbSpendCounters(documents, env.SPEND_TABLE_NAME ?? ''),
    budgets: new DynamoDbBudgetRepository(documents, env.BUDGETS_TABLE_NAME ?? ''),
    notifier: new SnsBudgetNotifier(new SNSClient({}), env.BUDGET_ALERTS_TOPIC_ARN ?? ''),
    commands: new SqsLeaseCommandQueue(
      new SQSClient({ useQueueUrlAsEndpoint: false }),
      env.LEASE_COMMANDS_QUEUE_URL ?? '',
    ),
    events: new EventBridgePublisher(new EventBridgeClient({}), env.EVENT_BUS_NAME ?? ''),
    now: () => AT_MS,
  };
}

/** The naive round: each budget, then each of its counters, read with its own request, in sequence. */
async function naiveRound(deps: BudgetEvaluationDeps, keys: readonly { tenantId: string; name: string }[]) {
  const open = await deps.leases.openInstances();
  const rateOf = runRates(open);
  let alertsSent = 0;
  for (const key of keys) {
    const budget = (await deps.budgets.get(key.tenantId, key.name)) as Budget;
    const [spend = 0] = await deps.spend.spendOf([
      { tenantId: key.tenantId, month: MONTH, scope: budgetScope(budget.project) },
    ]);
    const forecast = forecastMonthEnd(spend, rateOf(budget.tenantId, budget.project), AT_MS);
    const outcome = await settleBudget({ deps, budget, month: MONTH, atMs: AT_MS, forecast, open });
    alertsSent += outcome.alertsSent;
  }
  return alertsSent;
}

export async function run(): Promise<BenchmarkResult> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const emulators = await startEmulators();
  try {
    const prepare = async (prefix: string) => {
      const env = await prepareFunctionEnvironment(emulators.endpoints, 'us-east-1', prefix);
      Object.assign(process.env, env);
      return env;
    };
    const batchedEnv = await prepare('bench-batched');
    const batched = countingClient(emulators.endpoints.dynamodb);
    await seed(batched.documents, batchedEnv);
    const naiveEnv = await prepare('bench-naive');
    const naive = countingClient(emulators.endpoints.dynamodb);
    const keys = await seed(naive.documents, naiveEnv);

    batched.reset();
    Object.assign(process.env, batchedEnv);
    const batchedStart = performance.now();
    const summary = await evaluateBudgets(depsOf(batched.documents, batchedEnv), AT_MS);
    const secondsPerRound = (performance.now() - batchedStart) / 1000;
    const batchedRequests = batched.requests();

    naive.reset();
    Object.assign(process.env, naiveEnv);
    const naiveStart = performance.now();
    const naiveAlerts = await naiveRound(depsOf(naive.documents, naiveEnv), keys);
    const baselineSecondsPerRound = (performance.now() - naiveStart) / 1000;
    const naiveRequests = naive.requests();
    if (naiveAlerts !== summary.alertsSent) {
      throw new Error(`The rounds disagree: ${summary.alertsSent} alerts batched, ${naiveAlerts} naive`);
    }

    const figures = {
      budgets: summary.budgets,
      secondsPerRound: round(secondsPerRound, 3),
      baselineSecondsPerRound: round(baselineSecondsPerRound, 3),
      speedup: round(baselineSecondsPerRound / secondsPerRound, 1),
      requestsPerBudget: round(batchedRequests / summary.budgets, 4),
      baselineRequestsPerBudget: round(naiveRequests / summary.budgets, 4),
      alertsSent: summary.alertsSent,
    };
    return {
      key: 'budgets',
      figures,
      summary: [
        `${figures.budgets} budgets, ${figures.alertsSent} alerts this round (both rounds agree)`,
        `evaluator: ${figures.secondsPerRound} s, ${figures.requestsPerBudget} DynamoDB requests per budget`,
        `naive:     ${figures.baselineSecondsPerRound} s, ${figures.baselineRequestsPerBudget} requests per budget`,
        `speed-up ${figures.speedup}x`,
      ].join('\n'),
    };
  } finally {
    await emulators.stop();
  }
}
