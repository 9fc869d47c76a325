import { inject } from 'vitest';
import type { EmulatorEndpoints } from '../../local/emulators';

/**
 * This file's emulators: those of the stream its worker runs. vitest numbers the
 * workers running at once 1..maxWorkers (VITEST_POOL_ID), so two files that run
 * together never share a stream.
 */
export function emulatorEndpoints(): EmulatorEndpoints {
  const streams = inject('emulatorStreams');
  const stream = Number(process.env.VITEST_POOL_ID ?? '1');
  const endpoints = streams[stream - 1];
  if (!endpoints) {
    throw new Error(
      `No emulators for worker ${stream}: the global setup started ${streams.length} stream(s)`,
    );
  }
  return endpoints;
}
