import type { TestProject } from 'vitest/node';
import { type EmulatorEndpoints, startEmulators } from '../../local/emulators';

declare module 'vitest' {
  export interface ProvidedContext {
    endpoints: EmulatorEndpoints;
  }
}

/** One set of emulators for the whole integration run, stopped when it ends. */
export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const emulators = await startEmulators();
  project.provide('endpoints', emulators.endpoints);
  return () => emulators.stop();
}
