import type { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { DescribeInstancesCommand, type EC2Client } from '@aws-sdk/client-ec2';
import { z } from 'zod';
import { readRequestsPerMinute } from '../../planner/trace/azure-functions';
import { priceCatalog } from '../../shared/catalog';
import { gpusOfInstances } from '../../shared/domain/waste/gpu-indexes';
import { LEASE_TAG, MANAGED_TAG, TENANT_TAG } from '../../shared/ports/compute';
import { type GpuSample, publishGpuSamples } from './gpu-telemetry-publisher';

const MINUTE_MS = 60_000;

/** How busy the local fleet's GPUs are. */
export type GpuLoadModel =
  | { readonly kind: 'idle' }
  | { readonly kind: 'steady'; readonly percent: number }
  | {
      readonly kind: 'replay';
      readonly requestsPerMinute: readonly number[];
      /** Trace minutes replayed per real minute. */
      readonly speed: number;
      /** Requests one GPU serves in a minute; the fleet shares the load evenly. */
      readonly requestsPerGpuMinute: number;
      readonly startedAtMs: number;
    };

/**
 * Fleet-average utilization for the real minute ending at `atMs`: the mean
 * load of the trace minutes it replays, divided over the running GPUs and
 * capped at 100%, as nvidia-smi caps it.
 */
export function fleetUtilization(model: GpuLoadModel, atMs: number, gpus: number): number {
  switch (model.kind) {
    case 'idle':
      return 0;
    case 'steady':
      return model.percent;
    case 'replay': {
      const trace = model.requestsPerMinute;
      const last = Math.max(1, Math.floor(((atMs - model.startedAtMs) / MINUTE_MS) * model.speed));
      const first = Math.max(0, last - Math.max(1, Math.round(model.speed)));
      let requests = 0;
      for (let minute = first; minute < last; minute += 1) requests += trace[minute % trace.length] ?? 0;
      const perMinute = requests / (last - first);
      return Math.min(100, (perMinute / (Math.max(1, gpus) * model.requestsPerGpuMinute)) * 100);
    }
  }
}

/** One GPU of a running gpurent instance, with the lease its tags name. */
interface LeaseGpu {
  readonly tenantId: string;
  readonly leaseId: string;
  readonly instanceId: string;
  readonly gpuIndex: number;
}

/** What one GPU reports at a utilization: a 24 GiB card, 35-80 °C, 60-300 W (an A10G's range). */
function sampleAt(gpu: LeaseGpu, atMs: number, utilizationPercent: number): GpuSample {
  const load = utilizationPercent / 100;
  return {
    ...gpu,
    atMs,
    utilizationPercent,
    memoryUsedMiB: Math.round(1_500 + load * 18_000),
    memoryTotalMiB: 24_576,
    temperatureC: Math.round(35 + load * 45),
    powerW: Math.round(60 + load * 240),
  };
}

/** Every GPU of every running gpurent instance of a lease: a p4d reports eight series, as its agent would. */
async function runningGpus(ec2: EC2Client): Promise<LeaseGpu[]> {
  const instances: { instanceId: string; instanceType: string; tenantId: string; leaseId: string }[] = [];
  let nextToken: string | undefined;
  do {
    const page = await ec2.send(
      new DescribeInstancesCommand({
        Filters: [
          { Name: `tag:${MANAGED_TAG}`, Values: ['true'] },
          { Name: 'instance-state-name', Values: ['running'] },
        ],
        NextToken: nextToken,
      }),
    );
    for (const reservation of page.Reservations ?? []) {
      for (const instance of reservation.Instances ?? []) {
        const tag = (key: string) => instance.Tags?.find((t) => t.Key === key)?.Value;
        const tenantId = tag(TENANT_TAG);
        const leaseId = tag(LEASE_TAG);
        // A warm machine no lease took yet has no lease credentials: its agent is not started.
        if (instance.InstanceId && tenantId && leaseId)
          instances.push({
            instanceId: instance.InstanceId,
            instanceType: instance.InstanceType ?? '',
            tenantId,
            leaseId,
          });
      }
    }
    nextToken = page.NextToken;
  } while (nextToken);
  const byId = new Map(instances.map((instance) => [instance.instanceId, instance]));
  return gpusOfInstances(priceCatalog, instances).map((gpu) => {
    const { tenantId = '', leaseId = '' } = byId.get(gpu.instanceId) ?? {};
    return { ...gpu, tenantId, leaseId };
  });
}

/**
 * One tick of the local stand-in for the CloudWatch agent: every GPU of every
 * running gpurent instance in the EC2 emulator reports the minute that just
 * ended, under the agent's metric names, to the CloudWatch emulator, in its
 * lease's namespace and signed with the lease's machine credentials, as the
 * agent is on AWS (`cloudWatchOf`: none for a machine whose lease sent it none
 * yet, which then reports nothing). Returns the GPUs reported.
 */
export async function publishSimulatedGpuLoad(
  clients: {
    ec2: EC2Client;
    cloudWatchOf: (instanceId: string) => CloudWatchClient | undefined;
  },
  model: GpuLoadModel,
  atMs: number,
): Promise<number> {
  const gpus = (await runningGpus(clients.ec2)).filter((gpu) => clients.cloudWatchOf(gpu.instanceId));
  const utilization = Math.round(fleetUtilization(model, atMs, gpus.length) * 10) / 10;
  const stampedMs = atMs - MINUTE_MS / 2;
  await publishGpuSamples(
    (sample) => clients.cloudWatchOf(sample.instanceId),
    gpus.map((gpu) => sampleAt(gpu, stampedMs, utilization)),
  );
  return gpus.length;
}

/**
 * The load model `npm start` uses, from the environment: GPURENT_GPU_LOAD =
 * idle (default) | steady | azure; GPURENT_GPU_LOAD_PERCENT for steady;
 * GPURENT_GPU_LOAD_SPEED (trace minutes per minute, default 10) and
 * GPURENT_GPU_LOAD_REQUESTS_PER_GPU_MINUTE (default 250,000) for the replay of
 * the Azure Functions trace in GPURENT_DATA_DIR (default ../shared/data).
 */
export function gpuLoadModelFromEnv(env: NodeJS.ProcessEnv, nowMs: number): GpuLoadModel {
  const parsed = z
    .object({
      GPURENT_GPU_LOAD: z.enum(['idle', 'steady', 'azure']).default('idle'),
      GPURENT_GPU_LOAD_PERCENT: z.coerce.number().min(0).max(100).default(50),
      GPURENT_GPU_LOAD_SPEED: z.coerce.number().positive().max(1440).default(10),
      GPURENT_GPU_LOAD_REQUESTS_PER_GPU_MINUTE: z.coerce.number().positive().default(250_000),
      GPURENT_DATA_DIR: z.string().min(1).optional(),
    })
    .parse(env);
  switch (parsed.GPURENT_GPU_LOAD) {
    case 'idle':
      return { kind: 'idle' };
    case 'steady':
      return { kind: 'steady', percent: parsed.GPURENT_GPU_LOAD_PERCENT };
    case 'azure':
      return {
        kind: 'replay',
        requestsPerMinute: readRequestsPerMinute(parsed.GPURENT_DATA_DIR),
        speed: parsed.GPURENT_GPU_LOAD_SPEED,
        requestsPerGpuMinute: parsed.GPURENT_GPU_LOAD_REQUESTS_PER_GPU_MINUTE,
        startedAtMs: nowMs,
      };
  }
}
