/**
 * Warm starts (issue #17): time to RUNNING of on-demand leases served from a
 * warm pool against cold launches of the same type, in the same run on the
 * local stack (moto boots instantly, so both are fast); the same two figures
 * modelled with published boot, image-pull and warm-start times of GPU
 * instances; and the pool size that pays for itself, replayed on the
 * Alibaba trace's arrivals (see BENCHMARKS.md for the method and sources).
 */
import { join } from 'node:path';
import type { leaseBody } from '../functions/api/lease-view';
import { type LocalStack, startLocalStack } from '../local/stack';
import { localWarmPoolName } from '../local/warm-pool';
import { ALIBABA_TRACE } from '../planner/paths';
import { readTrace } from '../planner/trace/read-trace';
import { DEFAULT_DATA_DIR } from '../shared/adapters/reference-data';
import { priceCatalog } from '../shared/catalog';
import { microToUsd, usdToMicro } from '../shared/domain/money';
import {
  paybackPoolSize,
  replayWarmPool,
  type WarmPoolEconomics,
} from '../shared/planning/warm-pool-payback';
import type { BenchmarkResult } from './support/benchmark';
import { percentile, round } from './support/stats';

const INSTANCE_TYPE = 'g5.xlarge';
const REGION = 'us-east-1';
/** Leases per kind (cold, then warm); the pool holds one machine per warm lease. */
const LEASES = 10;

/**
 * Modelled times for a GPU instance from the Deep Learning Base AMI (sources in BENCHMARKS.md):
 * - boot: RunInstances to a booted GPU VM, "1-5 minutes from zero" (Union.ai); 2 minutes taken.
 * - init: pulling a ~10 GB CUDA/PyTorch image, "4-5 minutes" on a fresh node (Union.ai); 4.5 minutes taken.
 * - warm: a stopped, pre-initialised instance serves "in as low as 30 seconds" (InfoQ on EC2 Auto Scaling warm pools).
 */
const MODELLED = { bootSeconds: 120, initSeconds: 270, warmSeconds: 30 } as const;
/** The launch template's root volume (infra/constructs/fleet.ts, local/bootstrap.ts). */
const VOLUME_GB = 200;
/** gp3 storage in us-east-1, USD per GB-month (aws.amazon.com/ebs/pricing). */
const EBS_GP3_USD_PER_GB_MONTH = 0.08;
const POOL_SIZES = Array.from({ length: 11 }, (_, size) => size);
/** How many times its price a waited machine-hour is taken to be worth, for the sensitivity rows. */
const WAIT_VALUE_MULTIPLES = [1, 2, 4] as const;

type LeaseJson = ReturnType<typeof leaseBody>;

async function call<Body>(stack: LocalStack, method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': `bench-warm-${crypto.randomUUID()}`,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Body;
}

/** One on-demand lease of the pool's type, to RUNNING: its own time to RUNNING and how it started. */
async function leaseToRunning(stack: LocalStack): Promise<{ seconds: number; start: string | undefined }> {
  const created = await call<LeaseJson>(stack, 'POST', '/v1/leases', stack.token, {
    workload: 'training',
    gpus: 1,
    mode: 'on-demand',
    instanceType: INSTANCE_TYPE,
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const lease = await call<LeaseJson>(stack, 'GET', `/v1/leases/${created.leaseId}`, stack.token);
    if (lease.status === 'RUNNING' && lease.secondsToRunning !== undefined)
      return { seconds: lease.secondsToRunning, start: lease.start };
    if (lease.status === 'FAILED' || Date.now() > deadline)
      throw new Error(`Lease ${created.leaseId} did not run: ${JSON.stringify(lease)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs the filler as its schedule does, with the stand-in of the machines' user data, until the pool is full. */
async function fillPool(stack: LocalStack, name: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    await stack.schedules.fire('gpurent-warm-pool-filler');
    await stack.warmInit.tick();
    const pool = await call<{
      size: number;
      machines: { launching: number; stopping: number; ready: number };
    }>(stack, 'GET', `/v1/admin/warm-pools/${name}`, stack.adminToken);
    if (pool.machines.ready === pool.size && pool.machines.launching + pool.machines.stopping === 0) return;
    if (Date.now() > deadline) throw new Error(`The warm pool did not fill: ${JSON.stringify(pool)}`);
  }
}

async function measureLocally() {
  const pool = { instanceType: INSTANCE_TYPE, size: LEASES };
  // Starts its own emulators and stops them with the stack.
  const stack = await startLocalStack({
    port: 0,
    prefix: 'bench-warm',
    timers: false,
    warmPool: pool,
  });
  try {
    // The pool is defined but never filled yet (no timers, no use): these launch cold.
    const cold: Awaited<ReturnType<typeof leaseToRunning>>[] = [];
    for (let i = 0; i < LEASES; i += 1) cold.push(await leaseToRunning(stack));
    await fillPool(stack, localWarmPoolName(pool));
    // One ready machine per lease; machines launched to replace them are not ready before the run ends.
    const warm: typeof cold = [];
    for (let i = 0; i < LEASES; i += 1) warm.push(await leaseToRunning(stack));
    const starts = (runs: typeof cold, kind: string) => {
      const wrong = runs.filter((run) => run.start !== kind);
      if (wrong.length > 0) throw new Error(`${wrong.length} of the ${kind} leases started otherwise`);
      return runs.map((run) => run.seconds);
    };
    return { cold: starts(cold, 'cold'), warm: starts(warm, 'warm') };
  } finally {
    await stack.stop();
  }
}

/** Arrivals of single-GPU pods (one pool machine each) in the Alibaba trace, and the trace's span. */
async function singleGpuArrivals() {
  const trace = await readTrace(join(DEFAULT_DATA_DIR, ALIBABA_TRACE));
  const single = trace.leases.filter((lease) => lease.gpus === 1);
  const arrivals = single.map((lease) => lease.startMs).sort((a, b) => a - b);
  return { arrivals, spanMs: trace.endMs - trace.originMs, gpuPods: trace.leases.length };
}

export async function run(): Promise<BenchmarkResult> {
  const local = await measureLocally();
  const { arrivals, spanMs, gpuPods } = await singleGpuArrivals();
  const price = priceCatalog.onDemandMicroPerHour(INSTANCE_TYPE, REGION);
  const coldSeconds = MODELLED.bootSeconds + MODELLED.initSeconds;
  const economics = (multiple: number): WarmPoolEconomics => ({
    coldSeconds,
    warmSeconds: MODELLED.warmSeconds,
    instanceMicroPerHour: price,
    waitMicroPerHour: price * multiple,
    volumeGb: VOLUME_GB,
    ebsMicroPerGbMonth: usdToMicro(EBS_GP3_USD_PER_GB_MONTH),
  });
  const bySize = (multiple: number) =>
    POOL_SIZES.map((size) => replayWarmPool(arrivals, spanMs, size, economics(multiple)));
  const atPrice = bySize(1);
  const sensitivity = Object.fromEntries(
    WAIT_VALUE_MULTIPLES.map((multiple) => [`${multiple}x`, paybackPoolSize(bySize(multiple))]),
  );
  const figures = {
    warmP95SecondsToRunning: round(percentile(local.warm, 0.95), 3),
    coldP95SecondsToRunning: round(percentile(local.cold, 0.95), 3),
    warmMedianSecondsToRunning: round(percentile(local.warm, 0.5), 3),
    coldMedianSecondsToRunning: round(percentile(local.cold, 0.5), 3),
    leasesPerKind: LEASES,
    modelledWarmSeconds: MODELLED.warmSeconds,
    modelledColdSeconds: coldSeconds,
    modelledBootSeconds: MODELLED.bootSeconds,
    modelledInitSeconds: MODELLED.initSeconds,
    paybackPoolSize: paybackPoolSize(atPrice),
    paybackPoolSizeByWaitValue: sensitivity,
    pool: {
      instanceType: INSTANCE_TYPE,
      region: REGION,
      onDemandUsdPerHour: microToUsd(price),
      volumeGb: VOLUME_GB,
      ebsUsdPerGbMonth: EBS_GP3_USD_PER_GB_MONTH,
    },
    trace: { singleGpuArrivals: arrivals.length, gpuPods, spanDays: round(spanMs / 86_400_000, 1) },
    bySize: atPrice.map((outcome) => ({
      size: outcome.size,
      warm: outcome.warm,
      poolCostUsd: round(microToUsd(outcome.poolCostMicroUsd), 2),
      waitSavedUsd: round(microToUsd(outcome.waitSavedMicroUsd), 2),
      netUsd: round(microToUsd(outcome.netMicroUsd), 2),
    })),
  };
  const best = (multiple: string) => sensitivity[multiple] ?? 0;
  return {
    key: 'warmStart',
    figures,
    summary: [
      `local (moto): p95 to RUNNING warm ${figures.warmP95SecondsToRunning} s, cold ${figures.coldP95SecondsToRunning} s (${LEASES} leases each)`,
      `modelled GPU DLAMI: warm ${MODELLED.warmSeconds} s, cold ${coldSeconds} s (boot ${MODELLED.bootSeconds} + image pull ${MODELLED.initSeconds})`,
      `Alibaba trace, ${arrivals.length} single-GPU arrivals over ${figures.trace.spanDays} days: pool size that pays for itself ${figures.paybackPoolSize} with a waited GPU-minute worth its price; ${best('2x')} at 2x, ${best('4x')} at 4x`,
    ].join('\n'),
  };
}
