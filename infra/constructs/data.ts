import { RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct, type IConstruct } from 'constructs';
import { TABLES, type TableDefinition, type TableName } from '../../shared/resources';
import type { TableBinding } from './gpurent-function';
import { acknowledgeWildcardResource } from './nag';

/**
 * CDK grants on a table with secondary indexes include `<table>/index/*`; this records
 * why that wildcard is fine on the policy of `principal` (a role or its owner).
 */
export function acknowledgeTableIndexes(principal: IConstruct, table: ITable): void {
  acknowledgeWildcardResource(
    principal,
    `${table.tableArn}/index/*`,
    'Queries on the secondary indexes of one gpurent table: CDK grants index access as <table arn>/index/*, limited to that table.',
  );
}

export interface GpurentDataProps {
  /**
   * What happens to the tables when they leave the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;

  /**
   * Refuse `DeleteTable` calls, also from the console.
   * @default true
   */
  readonly deletionProtection?: boolean;

  /**
   * Server-side encryption of every table.
   * @default TableEncryption.AWS_MANAGED (the `aws/dynamodb` KMS key, visible in CloudTrail)
   */
  readonly encryption?: TableEncryption;

  /**
   * Secondary indexes (by name) not to create yet: CloudFormation adds one
   * global secondary index per table per update, so a release that adds two
   * to one table is deployed twice, holding one back the first time.
   * @default - none held back
   */
  readonly holdBackIndexes?: readonly string[];
}

/**
 * The DynamoDB tables of gpurent, one per entry of `TABLES` in `shared/resources.ts`
 * (the list the local runtime also creates its tables from). On-demand billing,
 * point-in-time recovery, encryption at rest, retained by default.
 */
export class GpurentData extends Construct {
  public readonly tables: { readonly [K in TableName]: Table };

  constructor(scope: Construct, id: string, props: GpurentDataProps = {}) {
    super(scope, id);
    const tables: Partial<Record<TableName, Table>> = {};
    for (const [name, definition] of Object.entries(TABLES) as [TableName, TableDefinition][]) {
      tables[name] = this.createTable(definition, props);
    }
    this.tables = tables as Record<TableName, Table>;
  }

  /** The table and the environment variable functions read its name from. */
  public binding(name: TableName): TableBinding {
    const definition: TableDefinition = TABLES[name];
    return {
      table: this.tables[name],
      envVar: definition.envVar,
      hasIndexes: definition.indexes.length > 0,
    };
  }

  /** Grants read access to one table and its indexes. */
  public grantReadData(name: TableName, grantee: IGrantable) {
    const grant = this.tables[name].grantReadData(grantee);
    this.acknowledgeIndexes(name, grantee);
    return grant;
  }

  /** Grants read/write access to one table and its indexes. */
  public grantReadWriteData(name: TableName, grantee: IGrantable) {
    const grant = this.tables[name].grantReadWriteData(grantee);
    this.acknowledgeIndexes(name, grantee);
    return grant;
  }

  private acknowledgeIndexes(name: TableName, grantee: IGrantable): void {
    const principal = grantee.grantPrincipal;
    if (TABLES[name].indexes.length > 0 && Construct.isConstruct(principal)) {
      acknowledgeTableIndexes(principal, this.tables[name]);
    }
  }

  private createTable(definition: TableDefinition, props: GpurentDataProps): Table {
    const table = new Table(this, definition.id, {
      partitionKey: { name: definition.partitionKey, type: AttributeType.STRING },
      sortKey: definition.sortKey ? { name: definition.sortKey, type: AttributeType.STRING } : undefined,
      timeToLiveAttribute: definition.timeToLiveAttribute,
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: props.encryption ?? TableEncryption.AWS_MANAGED,
      deletionProtection: props.deletionProtection ?? true,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
    for (const index of definition.indexes) {
      if (props.holdBackIndexes?.includes(index.name)) continue;
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: index.sortKey ? { name: index.sortKey, type: AttributeType.STRING } : undefined,
        projectionType: index.projection === 'KEYS_ONLY' ? ProjectionType.KEYS_ONLY : ProjectionType.ALL,
      });
    }
    return table;
  }
}
