import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { nonEmpty } from '../config';
import { TABLES } from '../resources';
import { portFactory } from './port-factory';

/**
 * Powertools idempotency records (the API's create, the worker's commands). A
 * module of its own: Powertools idempotency is not marked free of side effects,
 * so importing it from the stores would put it in every function's bundle.
 */
export const idempotencyStore = () =>
  portFactory({
    env: { [TABLES.idempotency.envVar]: nonEmpty },
    reaches: [{ kind: 'table', table: 'idempotency', access: 'readWrite' }],
    create: (env, clients) =>
      new DynamoDBPersistenceLayer({
        tableName: env.IDEMPOTENCY_TABLE_NAME,
        awsSdkV3Client: clients.dynamoDb,
      }),
  });
