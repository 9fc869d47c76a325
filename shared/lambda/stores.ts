import { DynamoDbCommitmentRepository } from '../adapters/dynamodb-commitments';
import { DynamoDbImageRepository } from '../adapters/dynamodb-images';
import { DynamoDbLeaseRepository } from '../adapters/dynamodb-lease-repository';
import { DynamoDbMeteringLedger } from '../adapters/dynamodb-metering-ledger';
import { nonEmpty } from '../config';
import { createDocumentClient, createDynamoDbClient } from './clients';

/** Environment every function that reads or writes leases needs. */
export const storeConfig = { LEASES_TABLE_NAME: nonEmpty, USAGE_TABLE_NAME: nonEmpty };

/** The lease repository and the metering ledger over one DynamoDB client. */
export function createStores(config: { LEASES_TABLE_NAME: string; USAGE_TABLE_NAME: string }) {
  const dynamoDb = createDynamoDbClient();
  const documents = createDocumentClient(dynamoDb);
  return {
    dynamoDb,
    leases: new DynamoDbLeaseRepository(documents, config.LEASES_TABLE_NAME),
    ledger: new DynamoDbMeteringLedger(documents, {
      leases: config.LEASES_TABLE_NAME,
      usage: config.USAGE_TABLE_NAME,
    }),
    images: new DynamoDbImageRepository(documents, config.LEASES_TABLE_NAME),
    commitments: new DynamoDbCommitmentRepository(documents, {
      leases: config.LEASES_TABLE_NAME,
      usage: config.USAGE_TABLE_NAME,
    }),
  };
}
