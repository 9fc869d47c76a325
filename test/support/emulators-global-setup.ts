import type { TestProject } from 'vitest/node';
import { type EmulatorEndpoints, startEmulators } from '../../local/emulators';
import { startAllOrNone } from '../../local/emulators/processes';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One set of emulators per integration worker: index `VITEST_POOL_ID - 1` (test/support/emulators.ts). */
    emulatorStreams: EmulatorEndpoints[];
  }
}

/**
 * One set of emulators for each worker the integration project runs at once,
 * stopped when the run ends. Most integration time is spent waiting on the
 * emulators, so files run in as many streams as the project has workers; each
 * stream owns its DynamoDB Local, moto and fauxqs, so table scans, moto's
 * reset and the EC2 fleet still belong to one file at a time.
 */
export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const streams = project.config.maxWorkers ?? 1;
  const running = await startAllOrNone(Array.from({ length: streams }, () => startEmulators()));
  project.provide(
    'emulatorStreams',
    running.map((emulators) => emulators.endpoints),
  );
  return async () => {
    await Promise.all(running.map((emulators) => emulators.stop()));
  };
}
