import { z } from 'zod';

/** Log levels the functions accept. */
export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;

const REGION = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;
const regionName = z.string().regex(REGION, 'must be an AWS region name such as us-east-1');
const list = (item: z.ZodString) =>
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item).min(1, 'must name at least one'));

/**
 * Every context value the stack reads (`-c key=value` or cdk.json), how to write
 * it and what it is for. Validated once at synth; a bad value fails the synth
 * with a message naming it and how to set it.
 */
export const deployContext = z
  .strictObject({
    region: regionName.optional().describe('home region: the API, tables, functions (e.g. eu-west-1)'),
    gpuRegions: list(regionName)
      .optional()
      .describe('regions GPU instances are launched in, comma-separated (default: the home region)'),
    availabilityZones: list(
      z.string().regex(/^[a-z]{2}(-gov)?-[a-z]+-\d[a-z]$/, 'must be zones such as us-east-1a'),
    )
      .optional()
      .describe('zones of the new GPU VPC, comma-separated'),
    operatorEmail: z.email('must be an e-mail address').optional().describe('who receives operator alarms'),
    userPoolId: z
      .string()
      .regex(
        /^[a-z]{2}(-gov)?-[a-z]+-\d_[0-9A-Za-z]+$/,
        'must be a Cognito user pool id such as us-east-1_AbC123',
      )
      .optional()
      .describe('an existing user pool with the custom:tenant attribute (default: a new pool)'),
    vpcId: z
      .string()
      .regex(/^vpc-[0-9a-f]{8,17}$/, 'must be a VPC id such as vpc-0abc12345def67890')
      .optional()
      .describe('an existing VPC to launch GPUs in (default: a new VPC); needs vpcSubnets'),
    vpcSubnets: list(
      z
        .string()
        .regex(/^subnet-[0-9a-f]{8,17}:[a-z]{2}(-gov)?-[a-z]+-\d[a-z]$/, 'must be subnet-id:zone pairs'),
    )
      .optional()
      .describe('the existing VPC’s subnets as subnet-id:zone, comma-separated'),
    gpuAmiId: z
      .string()
      .regex(/^ami-[0-9a-f]{8,17}$/, 'must be an AMI id such as ami-0abc12345def67890')
      .optional(),
    logLevel: z.enum(LOG_LEVELS, 'must be DEBUG, INFO, WARN or ERROR').optional(),
    checkpointRetentionDays: z.coerce
      .number()
      .int('must be a whole number of days')
      .min(1, 'must be at least 1 day')
      .max(36_500, 'must be at most 36500 days')
      .optional()
      .describe(
        'S3 Object Lock compliance retention of every checkpoint version, in days (default: none; only when the bucket is first created)',
      ),
    holdBackIndexes: list(z.string().regex(/^[a-z0-9-]+$/, 'must be index names such as open-leases'))
      .optional()
      .describe(
        'secondary indexes of shared/resources.ts not to create in this deploy: CloudFormation adds one per table per update, so an upgrade that adds two takes two deploys',
      ),
    spotDataDir: z
      .string()
      .min(1)
      .optional()
      .describe('folder with the V100 spot traces bundled for the monthly audit (default ../shared/data)'),
  })
  .superRefine((context, issues) => {
    if ((context.vpcId === undefined) !== (context.vpcSubnets === undefined)) {
      issues.addIssue({
        code: 'custom',
        path: [context.vpcId === undefined ? 'vpcId' : 'vpcSubnets'],
        message: 'vpcId and vpcSubnets go together: set both to use an existing VPC, or neither',
      });
    }
    if (context.vpcId !== undefined && context.availabilityZones !== undefined) {
      issues.addIssue({
        code: 'custom',
        path: ['availabilityZones'],
        message: 'applies to a new VPC only; the zones of an existing VPC come from vpcSubnets',
      });
    }
  });

export type DeployContext = z.infer<typeof deployContext>;

export class InvalidContextError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid CDK context:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'InvalidContextError';
  }
}

/**
 * Reads the context values the stack knows from `tryGetContext` (arrays become
 * comma lists, empty strings are unset) and validates them together, so every
 * bad value is named at once.
 */
export function readDeployContext(tryGetContext: (key: string) => unknown): DeployContext {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(deployContext.shape)) {
    const value = tryGetContext(key);
    if (value === undefined || value === null || value === '') continue;
    raw[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  const parsed = deployContext.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new InvalidContextError(
    parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? '');
      const got = raw[key] === undefined ? '' : ` (got "${raw[key]}")`;
      return `context value "${key}" ${issue.message}${got}; set it with -c ${key}=…`;
    }),
  );
}
