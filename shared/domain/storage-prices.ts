import { type MicroUsd, usdToMicro } from './money';

/** The storage price table as bundled (USD per GB-month), beside the GPU catalog. */
export interface StoragePriceData {
  readonly ebsGp3UsdPerGbMonth: Readonly<Record<string, number>>;
  readonly ebsGp3DefaultUsdPerGbMonth: number;
  readonly s3StandardUsdPerGbMonth: Readonly<Record<string, number>>;
  readonly s3StandardDefaultUsdPerGbMonth: number;
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

  /** S3 Standard storage (first 50 TB a month), per GB-month: the checkpoint bucket's class. */
  s3StandardMicroPerGbMonth(region: string): MicroUsd {
    return usdToMicro(this.data.s3StandardUsdPerGbMonth[region] ?? this.data.s3StandardDefaultUsdPerGbMonth);
  }
}
