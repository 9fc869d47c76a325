import type { MicroUsd } from '../money';
import type { PlacementCosts } from '../placement-costs';

export type TransferCosts = Pick<PlacementCosts, 'transferMicroUsdPerGb' | 'defaultTransferMicroUsdPerGb'>;

/** Moving a checkpoint of `gb` from one region to another at the inter-region rates; nothing within a region. */
export function checkpointTransferMicroUsd(
  costs: TransferCosts,
  gb: number,
  from: string,
  to: string,
): MicroUsd {
  if (from === to) return 0;
  const perGb = costs.transferMicroUsdPerGb[`${from}>${to}`] ?? costs.defaultTransferMicroUsdPerGb;
  return Math.round(perGb * gb);
}
