import { awsProbe } from './aws';

/**
 * Every charge in the usage table, one entry each with its tenant: the usage
 * records (one per metering transaction) opened up, for tests that follow a
 * single instance's charges. Other rows of the table (idle reserved time) hold
 * no charges.
 */
export async function usageCharges(tableName: string): Promise<Record<string, unknown>[]> {
  const records = await awsProbe().scan(tableName);
  return records.flatMap((record) =>
    Array.isArray(record.charges)
      ? (record.charges as Record<string, unknown>[]).map((charge) => ({
          tenantId: record.tenantId,
          ...charge,
        }))
      : [],
  );
}
