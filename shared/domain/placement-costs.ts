import * as z from '../zod';
import { type MicroUsd, usdToMicro } from './money';

/**
 * What it costs to run a lease away from its data, as configuration: a
 * latency penalty per hour (slower reads make every hour of GPU time worth
 * less) and a one-off transfer of the lease's data at per-GB inter-region
 * rates. Tables are keyed `from>to`; a missing pair takes the default.
 */
export interface PlacementCosts {
  readonly latencyPenaltyMicroUsdPerHour: Readonly<Record<string, MicroUsd>>;
  readonly defaultLatencyPenaltyMicroUsdPerHour: MicroUsd;
  readonly transferMicroUsdPerGb: Readonly<Record<string, MicroUsd>>;
  readonly defaultTransferMicroUsdPerGb: MicroUsd;
}

/**
 * Defaults: AWS's public inter-region data transfer rates ($0.01/GB between
 * us-east-1 and us-east-2, $0.02/GB out of US, Canadian and European regions,
 * the default for every other pair; some Asian and South American regions
 * charge more, set those pairs in `PLACEMENT_COSTS`); a latency penalty of $0.10/h between regions on one continent and $0.50/h
 * across continents, about 3% and 15% of an A10G hour: enough to keep a lease
 * near its data when prices are close, not enough to pay double for it.
 */
export const DEFAULT_PLACEMENT_COSTS: PlacementCosts = {
  latencyPenaltyMicroUsdPerHour: {},
  defaultLatencyPenaltyMicroUsdPerHour: usdToMicro(0.5),
  transferMicroUsdPerGb: {
    'us-east-1>us-east-2': usdToMicro(0.01),
    'us-east-2>us-east-1': usdToMicro(0.01),
  },
  defaultTransferMicroUsdPerGb: usdToMicro(0.02),
};

/** Same continent: the region names share their first part (us, eu, ap, ...). */
const SAME_CONTINENT_PENALTY = usdToMicro(0.1);

const continent = (region: string) => region.split('-')[0];

/** Running away from the lease's data: a data region is named and the pool is elsewhere. */
const awayFromData = (dataRegion: string | undefined, poolRegion: string): dataRegion is string =>
  dataRegion !== undefined && dataRegion !== poolRegion;

/**
 * The latency penalty for one hour and the transfer of `dataGb`, for running in
 * `poolRegion` with data in `dataRegion`; nothing when they are the same or no
 * data region is named.
 */
export const placementOverheadMicroUsd = (
  costs: PlacementCosts,
  dataRegion: string | undefined,
  poolRegion: string,
  dataGb: number,
): MicroUsd =>
  latencyPenaltyMicroUsd(costs, dataRegion, poolRegion) +
  transferMicroUsd(costs, dataRegion, poolRegion, dataGb);

function latencyPenaltyMicroUsd(costs: PlacementCosts, dataRegion: string | undefined, poolRegion: string) {
  if (!awayFromData(dataRegion, poolRegion)) return 0;
  return (
    costs.latencyPenaltyMicroUsdPerHour[`${dataRegion}>${poolRegion}`] ??
    (continent(dataRegion) === continent(poolRegion)
      ? Math.min(SAME_CONTINENT_PENALTY, costs.defaultLatencyPenaltyMicroUsdPerHour)
      : costs.defaultLatencyPenaltyMicroUsdPerHour)
  );
}

/**
 * Moving `dataGb` from `dataRegion` to `poolRegion` at the per-GB rate of the
 * pair: what placement weighs, and what the lease is charged once when it
 * starts there (one rate table for both).
 */
export function transferMicroUsd(
  costs: PlacementCosts,
  dataRegion: string | undefined,
  poolRegion: string,
  dataGb: number,
): MicroUsd {
  if (!awayFromData(dataRegion, poolRegion)) return 0;
  const perGb =
    costs.transferMicroUsdPerGb[`${dataRegion}>${poolRegion}`] ?? costs.defaultTransferMicroUsdPerGb;
  return Math.round(dataGb * perGb);
}

const usdTable = z.record(
  z.string().check(z.regex(/^[a-z0-9-]+>[a-z0-9-]+$/, 'keys are from>to regions')),
  z.number().check(z.nonnegative()),
);

/**
 * `PLACEMENT_COSTS` as JSON in USD, every field optional:
 * `{"latencyPenaltyUsdPerHour": {"us-east-1>eu-west-1": 0.8}, "defaultLatencyPenaltyUsdPerHour": 0.5,
 *   "transferUsdPerGb": {"us-east-1>us-west-2": 0.02}, "defaultTransferUsdPerGb": 0.02}`.
 * Given tables extend the defaults.
 */
export const placementCostsSchema = z.pipe(
  z.strictObject({
    latencyPenaltyUsdPerHour: z.optional(usdTable),
    defaultLatencyPenaltyUsdPerHour: z.optional(z.number().check(z.nonnegative())),
    transferUsdPerGb: z.optional(usdTable),
    defaultTransferUsdPerGb: z.optional(z.number().check(z.nonnegative())),
  }),
  z.transform(
    (input): PlacementCosts => ({
      latencyPenaltyMicroUsdPerHour: {
        ...DEFAULT_PLACEMENT_COSTS.latencyPenaltyMicroUsdPerHour,
        ...microTable(input.latencyPenaltyUsdPerHour),
      },
      defaultLatencyPenaltyMicroUsdPerHour:
        input.defaultLatencyPenaltyUsdPerHour === undefined
          ? DEFAULT_PLACEMENT_COSTS.defaultLatencyPenaltyMicroUsdPerHour
          : usdToMicro(input.defaultLatencyPenaltyUsdPerHour),
      transferMicroUsdPerGb: {
        ...DEFAULT_PLACEMENT_COSTS.transferMicroUsdPerGb,
        ...microTable(input.transferUsdPerGb),
      },
      defaultTransferMicroUsdPerGb:
        input.defaultTransferUsdPerGb === undefined
          ? DEFAULT_PLACEMENT_COSTS.defaultTransferMicroUsdPerGb
          : usdToMicro(input.defaultTransferUsdPerGb),
    }),
  ),
);

function microTable(table: Record<string, number> | undefined): Record<string, MicroUsd> {
  return Object.fromEntries(Object.entries(table ?? {}).map(([pair, usd]) => [pair, usdToMicro(usd)]));
}
