import { basename, join } from 'node:path';
import { AVAILABILITY_DIR, loadSpotTraces } from '../shared/adapters/spot-trace-files';
import { priceCatalog } from '../shared/catalog';
import { REPLAY_INSTANCE_TYPE } from '../shared/planning/model';
import { type Replay, replayDemand } from '../shared/planning/replay';
import { requirePricedZones } from './priced-zones';
import { readTrace } from './trace/read-trace';

export interface ReplayOptions {
  readonly tracePath: string;
  readonly dataDir: string;
  readonly reservationLookbackMs?: number;
}

/** Reads a demand trace file and the spot traces of `dataDir`, and replays the one against the other. */
export async function replayTrace(options: ReplayOptions): Promise<Replay> {
  const [trace, spot] = await Promise.all([readTrace(options.tracePath), loadSpotTraces(options.dataDir)]);
  requirePricedZones(
    spot.zones,
    priceCatalog,
    REPLAY_INSTANCE_TYPE,
    join(options.dataDir, AVAILABILITY_DIR),
    "the rental-mix replay prices on-demand from the project's catalog, so replay traces of priced regions only",
  );
  return replayDemand(trace, spot, basename(options.tracePath), options.reservationLookbackMs);
}
