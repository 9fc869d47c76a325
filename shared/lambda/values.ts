import { CloudWatchMetricReader } from '../adapters/cloudwatch-metric-reader';
import { SpotTraceFiles } from '../adapters/spot-trace-files';
import { priceCatalog } from '../catalog';
import { nonEmpty } from '../config';
import { DEFAULT_GPU_TEMPERATURE_LIMIT_C } from '../domain/gpu-health';
import type { MetricReader } from '../ports/metrics';
import * as z from '../zod';
import { spotDataConfig } from './audit-config';
import { cloudWatchClient } from './clients';
import { powertoolsControlPlaneMetrics } from './control-plane-metrics';
import { portFactory } from './port-factory';

/** The GPU telemetry (and Lambda's own metrics) from CloudWatch. */
export const gpuMetricReader = () =>
  portFactory({
    env: {},
    reaches: [{ kind: 'gpuMetrics' }],
    create: (_env, clients): MetricReader => new CloudWatchMetricReader(cloudWatchClient(clients)),
  });

/** The V100 spot traces the audit replays against, bundled into the function package. */
export const spotTraceFiles = () =>
  portFactory({
    env: spotDataConfig,
    reaches: [{ kind: 'spotTraces' }],
    create: (env) => new SpotTraceFiles(env.SPOT_DATA_DIR),
  });

/*
 * Ports that reach nothing: values every use case is handed the same way as
 * its AWS ports, so a function's wiring lists all it is built from.
 */
export const priceCatalogValue = () =>
  portFactory({
    env: {},
    reaches: [],
    create: () => priceCatalog,
  });

export const homeRegion = () =>
  portFactory({
    env: { AWS_REGION: nonEmpty },
    reaches: [],
    create: (env) => env.AWS_REGION,
  });

/** Read at each call (not captured), so tests can move the clock. */
export const wallClock = () =>
  portFactory({
    env: {},
    reaches: [],
    create: () => () => Date.now(),
  });

export const controlPlaneMetrics = () =>
  portFactory({
    env: {},
    reaches: [],
    create: () => powertoolsControlPlaneMetrics,
  });

/** A GPU hotter than this is reported unhealthy. */
export const gpuTemperatureLimit = () =>
  portFactory({
    env: {
      GPU_TEMPERATURE_LIMIT_C: z._default(
        z.coerce.number().check(z.gte(40), z.lte(120)),
        DEFAULT_GPU_TEMPERATURE_LIMIT_C,
      ),
    },
    reaches: [],
    create: (env) => env.GPU_TEMPERATURE_LIMIT_C,
  });
