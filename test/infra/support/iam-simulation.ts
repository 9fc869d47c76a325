import { runSimulation } from '@cloud-copilot/iam-simulate';
import type { Template } from 'aws-cdk-lib/assertions';

/** The account and region the synthesized template is resolved in. */
export const ACCOUNT = '123456789012';
export const REGION = 'us-east-1';

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown> }>;

/**
 * Turns the template's intrinsics into the strings CloudFormation would put
 * there, so that an IAM evaluator can read the statements: pseudo parameters,
 * and each resource's name (Ref) and ARN (Fn::GetAtt …Arn), named after its
 * logical id (`bucket-<id>`, `loggroup-<id>`, `role/<id>`).
 */
export function resolver(template: Template) {
  const resources = template.toJSON().Resources as Resources;
  const nameOf = (id: string): string => {
    const type = resources[id]?.Type ?? '';
    if (type === 'AWS::S3::Bucket') return `bucket-${id.toLowerCase()}`;
    if (type === 'AWS::Logs::LogGroup') return `loggroup-${id}`;
    return id;
  };
  const arnOf = (id: string): string => {
    const type = resources[id]?.Type ?? '';
    if (type === 'AWS::S3::Bucket') return `arn:aws:s3:::${nameOf(id)}`;
    if (type === 'AWS::Logs::LogGroup') return `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${nameOf(id)}:*`;
    if (type === 'AWS::IAM::Role') return `arn:aws:iam::${ACCOUNT}:role/${id}`;
    // Any other resource: an ARN of its own that no statement under test names.
    return `arn:aws:${type.split('::')[1]?.toLowerCase() ?? 'x'}:${REGION}:${ACCOUNT}:${id}`;
  };
  const PSEUDO: Record<string, string> = {
    'AWS::Partition': 'aws',
    'AWS::Region': REGION,
    'AWS::AccountId': ACCOUNT,
    'AWS::URLSuffix': 'amazonaws.com',
  };
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    const object = value as Record<string, unknown>;
    if ('Ref' in object) return PSEUDO[String(object.Ref)] ?? nameOf(String(object.Ref));
    if ('Fn::GetAtt' in object) {
      const [id, attribute] = object['Fn::GetAtt'] as [string, string];
      return attribute === 'Arn' ? arnOf(id) : `${id}.${attribute}`;
    }
    if ('Fn::Join' in object) {
      const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
      return (resolve(parts) as unknown[]).map(String).join(separator);
    }
    return Object.fromEntries(Object.entries(object).map(([key, inner]) => [key, resolve(inner)]));
  };

  return {
    resolve,
    nameOf,
    arnOf,
    /** Every identity policy of the role: its AWS::IAM::Policy documents and inline policies, resolved. */
    identityPolicies(roleId: string): { name: string; policy: unknown }[] {
      const attached = Object.entries(resources)
        .filter(
          ([, resource]) =>
            resource.Type === 'AWS::IAM::Policy' &&
            JSON.stringify(resource.Properties?.Roles ?? []).includes(`"${roleId}"`),
        )
        .map(([id, resource]) => ({ name: id, policy: resolve(resource.Properties?.PolicyDocument) }));
      const role = resources[roleId]?.Properties ?? {};
      const inline = (
        (role.Policies as { PolicyName: string; PolicyDocument: unknown }[] | undefined) ?? []
      ).map((policy) => ({ name: policy.PolicyName, policy: resolve(policy.PolicyDocument) }));
      return [...attached, ...inline];
    },
    /** The role's managed policy ARNs (an evaluator cannot read those: the tests require there are none). */
    managedPolicies: (roleId: string) =>
      (resources[roleId]?.Properties?.ManagedPolicyArns as unknown[]) ?? [],
    trustPolicy: (roleId: string) => resolve(resources[roleId]?.Properties?.AssumeRolePolicyDocument),
  };
}

export interface Request {
  readonly action: string;
  readonly resource: string;
  readonly context?: Record<string, string | string[]>;
}

/**
 * IAM's answer to one request by a role session: its identity policies, and
 * the session policy it was assumed with if any (the session may do only
 * what both allow). Validation errors (an unknown action, a context key the
 * action has not) fail the test rather than read as a denial.
 */
export async function decide(
  principal: string,
  identityPolicies: readonly { name: string; policy: unknown }[],
  request: Request,
  options: { sessionPolicy?: unknown; resourcePolicy?: unknown } = {},
): Promise<'Allowed' | 'ExplicitlyDenied' | 'ImplicitlyDenied'> {
  const result = await runSimulation(
    {
      request: {
        principal,
        action: request.action,
        resource: { resource: request.resource, accountId: ACCOUNT },
        contextVariables: request.context ?? {},
      },
      identityPolicies: [...identityPolicies],
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      sessionPolicy: options.sessionPolicy,
      resourcePolicy: options.resourcePolicy,
    },
    {},
  );
  if (result.resultType === 'error') {
    throw new Error(`${request.action} on ${request.resource}: ${JSON.stringify(result.errors)}`);
  }
  return result.overallResult as 'Allowed' | 'ExplicitlyDenied' | 'ImplicitlyDenied';
}
