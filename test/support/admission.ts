import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createTable } from '../../local/bootstrap';
import { DynamoDbAdmissionStore } from '../../shared/adapters/dynamodb-admission-store';
import { TABLES } from '../../shared/resources';

/** DynamoDB Local through a document client configured as the functions' is. */
export function localDynamoDb(endpoint: string) {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  return {
    documents,
    /** An admission table of its own, so each run starts empty. */
    async freshAdmissionTable(): Promise<string> {
      const table = `adm-${randomBytes(4).toString('hex')}`;
      await createTable(client, table, TABLES.admission);
      return table;
    },
    /** An admission store on a table of its own, so each property run starts empty. */
    async freshAdmissionStore(): Promise<DynamoDbAdmissionStore> {
      return new DynamoDbAdmissionStore(documents, await this.freshAdmissionTable());
    },
  };
}
