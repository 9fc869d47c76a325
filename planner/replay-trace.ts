import { basename } from 'node:path';
import { loadSpotTraces } from '../shared/adapters/spot-trace-files';
import { type Replay, replayDemand } from '../shared/planning/replay';
import { readTrace } from './trace/read-trace';

export interface ReplayOptions {
  readonly tracePath: string;
  readonly dataDir: string;
  readonly reservationLookbackMs?: number;
}

/** Reads a demand trace file and the spot traces of `dataDir`, and replays the one against the other. */
export async function replayTrace(options: ReplayOptions): Promise<Replay> {
  const [trace, spot] = await Promise.all([readTrace(options.tracePath), loadSpotTraces(options.dataDir)]);
  return replayDemand(trace, spot, basename(options.tracePath), options.reservationLookbackMs);
}
