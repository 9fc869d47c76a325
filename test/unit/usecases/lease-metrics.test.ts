import { describe, expect, it } from 'vitest';
import { gpuDimensions, gpuMetricNamespace, NVIDIA_SMI_METRICS } from '../../../shared/domain/gpu-telemetry';
import { LeaseNotFoundError } from '../../../shared/errors';
import { readLeaseGpuMetrics } from '../../../shared/usecases/lease-metrics';
import { type FakeControlPlane, fakeControlPlane } from '../../support/fakes/control-plane';
import { runningLease, TENANT } from '../../support/fakes/leases';

const MINUTE = 60_000;
const series = (
  plane: FakeControlPlane,
  { tenantId, leaseId, instanceId }: { tenantId: string; leaseId: string; instanceId: string },
  metric: keyof typeof NVIDIA_SMI_METRICS,
  values: number[],
  gpuIndex = 0,
) =>
  plane.metricReader.set(
    {
      namespace: gpuMetricNamespace({ tenantId, leaseId }),
      metricName: NVIDIA_SMI_METRICS[metric],
      dimensions: gpuDimensions(instanceId, gpuIndex),
      statistic: 'Average',
      periodSeconds: 60,
    },
    values.map((value, i) => ({ timestampMs: plane.now() - (values.length - i) * MINUTE, value })),
  );

describe("a lease's GPU metrics", () => {
  it('summarises each series of each GPU over the window, memory as a share of the total', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    const instanceId = lease.instances[0]?.instanceId ?? '';
    const instance = { tenantId: lease.tenantId, leaseId: lease.leaseId, instanceId };
    plane.clock.advance(10 * MINUTE);
    series(plane, instance, 'utilization', [40, 60, 80]);
    series(plane, instance, 'memoryUsed', [12_000, 12_000, 12_000]);
    series(plane, instance, 'memoryTotal', [24_000, 24_000, 24_000]);
    series(plane, instance, 'temperature', [60, 65, 70]);
    const window = { fromMs: plane.now() - 10 * MINUTE, toMs: plane.now(), periodSeconds: 60 };

    const [metrics] = await readLeaseGpuMetrics(
      { ...plane, metrics: plane.metricReader },
      TENANT,
      lease.leaseId,
      window,
      85,
    );

    expect(metrics?.instanceId).toBe(instanceId);
    const gpu = metrics?.gpus[0];
    expect(gpu?.utilization).toMatchObject({ avg: 60, max: 80 });
    expect(gpu?.memoryUsed.datapoints.map((d) => d.value)).toEqual([50, 50, 50]);
    expect(gpu?.power.datapoints).toEqual([]);
    expect(gpu?.health?.status).toBe('ok');
    expect(plane.metricReader.faults.callsOf('read')).toHaveLength(1);
  });

  it('reads every GPU of a multi-GPU instance, each under its own index', async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane, { gpus: 4, instanceType: 'g5.12xlarge' });
    const instanceId = lease.instances[0]?.instanceId ?? '';
    const instance = { tenantId: lease.tenantId, leaseId: lease.leaseId, instanceId };
    plane.clock.advance(10 * MINUTE);
    series(plane, instance, 'utilization', [90, 90], 3);
    const window = { fromMs: plane.now() - 10 * MINUTE, toMs: plane.now(), periodSeconds: 60 };

    const [metrics] = await readLeaseGpuMetrics(
      { ...plane, metrics: plane.metricReader },
      TENANT,
      lease.leaseId,
      window,
      85,
    );

    expect(metrics?.gpus.map((g) => [g.index, g.utilization.max])).toEqual([
      [0, null],
      [1, null],
      [2, null],
      [3, 90],
    ]);
  });

  it("refuses another tenant's lease", async () => {
    const plane = fakeControlPlane();
    const lease = await runningLease(plane);
    const window = { fromMs: 0, toMs: plane.now(), periodSeconds: 60 };
    await expect(
      readLeaseGpuMetrics({ ...plane, metrics: plane.metricReader }, 'tenant-b', lease.leaseId, window, 85),
    ).rejects.toBeInstanceOf(LeaseNotFoundError);
  });
});
