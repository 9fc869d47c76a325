/**
 * Noisy neighbours: one tenant floods the API at 20× its rate limit while
 * another works normally. The quiet tenant's latency is measured alone and
 * then under the flood, in the same run, against the real API handler on
 * DynamoDB Local (one in-process handler serves both tenants, as one warm
 * Lambda instance would, so the flood also competes for its event loop).
 * Bounded loops on loopback only.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { startEmulators } from '../local/emulators';
import { prepareFunctionEnvironment } from '../local/environment';
import { apiEvent } from '../local/runtime/api-event';
import { lambdaContext } from '../local/runtime/lambda-context';
import type { BenchmarkResult } from './support/benchmark';
import { percentile, round } from './support/stats';

const FLOODER_RATE = 5;
/** Requests a second the flooder sends: 20× its rate limit. */
const FLOOD_RATE = FLOODER_RATE * 20;
const QUIET_REQUESTS = 60;
/** The quiet tenant's pace: 5 requests a second, well inside its default 20. */
const QUIET_GAP_MS = 200;

type Handler = typeof import('../functions/api/handler').handler;

async function call(
  handler: Handler,
  tenant: string,
  routeKey: string,
  extra: Partial<Parameters<typeof apiEvent>[0]> = {},
) {
  const [, path = ''] = routeKey.split(' ');
  const result = (await handler(
    apiEvent({ routeKey, path, headers: {}, claims: { 'custom:tenant': tenant }, ...extra }),
    lambdaContext('api', 29_000),
  )) as APIGatewayProxyStructuredResultV2;
  return result.statusCode ?? 0;
}

async function quietRun(handler: Handler): Promise<{ latencies: number[]; non2xx: number }> {
  const latencies: number[] = [];
  let non2xx = 0;
  for (let i = 0; i < QUIET_REQUESTS; i += 1) {
    const start = performance.now();
    const status = await call(handler, 'quiet', 'GET /v1/leases');
    latencies.push(performance.now() - start);
    if (status < 200 || status > 299) non2xx += 1;
    await sleep(QUIET_GAP_MS);
  }
  return { latencies, non2xx };
}

export async function run(): Promise<BenchmarkResult> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  const emulators = await startEmulators();
  try {
    Object.assign(
      process.env,
      await prepareFunctionEnvironment(emulators.endpoints, 'us-east-1', 'bench-neighbours'),
    );
    const { handler } = await import('../functions/api/handler');
    const set = await call(handler, 'operators', 'PUT /v1/admin/tenants/{tenantId}/limits', {
      path: '/v1/admin/tenants/flood/limits',
      pathParameters: { tenantId: 'flood' },
      claims: { 'custom:tenant': 'operators', 'cognito:groups': '[admin]' },
      body: JSON.stringify({ requestsPerSecond: FLOODER_RATE }),
    });
    if (set !== 200) throw new Error(`Setting the flooder's limit answered ${set}`);
    // Warm the handler and both tenants' limits.
    for (const tenant of ['quiet', 'flood']) await call(handler, tenant, 'GET /v1/leases');

    const alone = await quietRun(handler);

    let flooding = true;
    let sent = 0;
    let throttled = 0;
    let flooderOk = 0;
    const pending: Promise<void>[] = [];
    const flood = (async () => {
      // 10 requests every 100 ms, fired without waiting for answers: FLOOD_RATE a second.
      while (flooding) {
        for (let i = 0; i < FLOOD_RATE / 10; i += 1) {
          sent += 1;
          pending.push(
            call(handler, 'flood', 'GET /v1/leases').then((status) => {
              if (status === 429) throttled += 1;
              else if (status >= 200 && status <= 299) flooderOk += 1;
            }),
          );
        }
        await sleep(100);
      }
    })();
    const floodStart = performance.now();
    const flooded = await quietRun(handler);
    flooding = false;
    await flood;
    await Promise.all(pending);
    const floodSeconds = (performance.now() - floodStart) / 1000;

    const figures = {
      flooderLimitPerSecond: FLOODER_RATE,
      floodRequestsPerSecond: round(sent / floodSeconds, 1),
      quietRequests: QUIET_REQUESTS,
      unfloodedP50Ms: round(percentile(alone.latencies, 0.5), 1),
      unfloodedP99Ms: round(percentile(alone.latencies, 0.99), 1),
      quietP50Ms: round(percentile(flooded.latencies, 0.5), 1),
      quietP99Ms: round(percentile(flooded.latencies, 0.99), 1),
      p99Ratio: round(percentile(flooded.latencies, 0.99) / percentile(alone.latencies, 0.99), 2),
      quietNon2xx: alone.non2xx + flooded.non2xx,
      flooderRequests: sent,
      flooderAdmitted: flooderOk,
      flooderThrottledShare: round(throttled / sent, 3),
    };
    return {
      key: 'neighbours',
      figures,
      summary: [
        `flooder: ${figures.floodRequestsPerSecond} req/s against a limit of ${FLOODER_RATE}/s; ${Math.round(figures.flooderThrottledShare * 100)}% answered 429`,
        `quiet tenant p50/p99: ${figures.unfloodedP50Ms}/${figures.unfloodedP99Ms} ms alone, ${figures.quietP50Ms}/${figures.quietP99Ms} ms under the flood (p99 ×${figures.p99Ratio}); non-2xx: ${figures.quietNon2xx}`,
      ].join('\n'),
    };
  } finally {
    await emulators.stop();
  }
}
