import { type MicroUsd, usdToMicro } from './money';

/** The storage price table as bundled (USD per GB-month), beside the GPU catalog. */
export interface StoragePriceData {
  readonly ebsGp3UsdPerGbMonth: Readonly<Record<string, number>>;
  readonly ebsGp3DefaultUsdPerGbMonth: number;
}

/**
 * Storage prices per region in micro-dollars per GB-month. A region the table
 * does not list pays the table's default, the dearest listed price, so storage
 * is never billed below what AWS charges the operator.
 */
export class StoragePrices {
  constructor(private readonly data: StoragePriceData) {}

  /** gp3 volume storage, per provisioned GB-month. */
  ebsMicroPerGbMonth(region: string): MicroUsd {
    return usdToMicro(this.data.ebsGp3UsdPerGbMonth[region] ?? this.data.ebsGp3DefaultUsdPerGbMonth);
  }
}
