import { DynamoDbCommitmentRepository } from '../adapters/dynamodb-commitments';
import { DynamoDbImageRepository } from '../adapters/dynamodb-images';
import { DynamoDbLeaseRepository } from '../adapters/dynamodb-lease-repository';
import { DynamoDbMeteringLedger } from '../adapters/dynamodb-metering-ledger';
import { DynamoDbSpendCounters } from '../adapters/dynamodb-spend-counters';
import { DynamoDbSpotPriceHistory } from '../adapters/dynamodb-spot-price-history';
import { nonEmpty } from '../config';
import * as z from '../zod';
import { createDocumentClient, createDynamoDbClient } from './clients';

/** Environment every function that reads or writes leases needs. */
export const storeConfig = {
  LEASES_TABLE_NAME: nonEmpty,
  USAGE_TABLE_NAME: nonEmpty,
  SPEND_TABLE_NAME: nonEmpty,
  /**
   * How long raw usage records are kept (the charge-by-charge trail); reports and
   * audits read rollups, the export reads leases.
   */
  USAGE_ROW_TTL_DAYS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(3650)), 400),
};

export interface StoreConfig {
  readonly LEASES_TABLE_NAME: string;
  readonly USAGE_TABLE_NAME: string;
  readonly SPEND_TABLE_NAME: string;
  readonly USAGE_ROW_TTL_DAYS?: number;
}

/** The lease repository, the metering ledger, the spend counters and spot price history over one DynamoDB client. */
export function createStores(config: StoreConfig) {
  const dynamoDb = createDynamoDbClient();
  const documents = createDocumentClient(dynamoDb);
  return {
    dynamoDb,
    leases: new DynamoDbLeaseRepository(documents, config.LEASES_TABLE_NAME),
    ledger: new DynamoDbMeteringLedger(
      documents,
      {
        leases: config.LEASES_TABLE_NAME,
        usage: config.USAGE_TABLE_NAME,
        spend: config.SPEND_TABLE_NAME,
      },
      { usageRowTtlDays: config.USAGE_ROW_TTL_DAYS },
    ),
    spend: new DynamoDbSpendCounters(documents, config.SPEND_TABLE_NAME),
    spotPrices: new DynamoDbSpotPriceHistory(documents, config.LEASES_TABLE_NAME),
    documents,
    images: new DynamoDbImageRepository(documents, config.LEASES_TABLE_NAME),
    commitments: new DynamoDbCommitmentRepository(documents, {
      leases: config.LEASES_TABLE_NAME,
      usage: config.USAGE_TABLE_NAME,
    }),
  };
}
