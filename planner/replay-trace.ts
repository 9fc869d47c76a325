import { basename, join } from 'node:path';
import { AVAILABILITY_DIR, loadSpotTraces, SpotDataError } from '../shared/adapters/spot-trace-files';
import { priceCatalog } from '../shared/catalog';
import { REPLAY_INSTANCE_TYPE } from '../shared/planning/model';
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
  // Every traced zone also offers on-demand in the replay, at its region's catalog price.
  const unpriced = spot.zones.filter((zone) => !priceCatalog.isPricedIn(REPLAY_INSTANCE_TYPE, zone.region));
  if (unpriced.length > 0) {
    throw new SpotDataError(
      join(options.dataDir, AVAILABILITY_DIR),
      `zones ${unpriced.map((zone) => zone.zone).join(', ')} are in regions where the price catalog has no ` +
        `on-demand price of ${REPLAY_INSTANCE_TYPE}; replay traces of priced regions only`,
    );
  }
  return replayDemand(trace, spot, basename(options.tracePath), options.reservationLookbackMs);
}
