import { Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Helpers for cdk-nag v3 acknowledgements (`Validations.of(x).acknowledge`).
 *
 * Every acknowledgement is attached to the narrowest construct that produces the
 * finding, and IAM5 wildcard findings are acknowledged one resource (or action)
 * at a time (`AwsSolutions-IAM5[Resource::...]`), never for the whole rule.
 */

const reasonsByScope = new WeakMap<IConstruct, Map<string, string[]>>();

/**
 * Acknowledges one cdk-nag rule (or one finding of it) on `scope` and its children.
 * Acknowledging the same id twice on the same scope keeps both reasons.
 */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  let byId = reasonsByScope.get(scope);
  if (!byId) {
    byId = new Map();
    reasonsByScope.set(scope, byId);
  }
  const reasons = byId.get(id) ?? [];
  if (reasons.includes(reason)) return;
  reasons.push(reason);
  byId.set(id, reasons);
  Validations.of(scope).acknowledge({ id, reason: reasons.join(' ') });
}

/**
 * Acknowledges an `AwsSolutions-IAM5` finding for one wildcard resource of a policy
 * attached under `scope` (a role, or the construct that owns it).
 *
 * @param resource the resource as written in the policy: a plain string or a token
 *   (for example the result of `Stack.formatArn`); it is rendered the way cdk-nag
 *   renders it (`<AWS::Partition>`, `<Logical.Arn>`), so the id matches exactly.
 */
export function acknowledgeWildcardResource(scope: IConstruct, resource: string, reason: string): void {
  acknowledge(scope, `AwsSolutions-IAM5[Resource::${renderForNag(scope, resource)}]`, reason);
}

/** Acknowledges an `AwsSolutions-IAM5` finding for one wildcard action (e.g. `ec2:Describe*`). */
export function acknowledgeWildcardAction(scope: IConstruct, action: string, reason: string): void {
  acknowledge(scope, `AwsSolutions-IAM5[Action::${action}]`, reason);
}

/** Renders a (possibly tokenised) string the way cdk-nag flattens CloudFormation references. */
export function renderForNag(scope: IConstruct, value: string): string {
  return flatten(Stack.of(scope).resolve(value));
}

function flatten(node: unknown): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/}/g, '>');
  if (typeof node === 'object' && node !== null) {
    const obj = node as Record<string, unknown>;
    if (Array.isArray(obj['Fn::Join'])) {
      const [delimiter, items] = obj['Fn::Join'] as [string, unknown[]];
      return items.map(flatten).join(delimiter);
    }
    if ('Fn::Sub' in obj) return flatten(obj['Fn::Sub']);
    if (Array.isArray(obj['Fn::GetAtt'])) {
      const [resource, attribute] = obj['Fn::GetAtt'] as [unknown, unknown];
      return `<${flatten(resource)}.${flatten(attribute)}>`;
    }
    if ('Fn::ImportValue' in obj) return flatten(obj['Fn::ImportValue']);
    if ('Ref' in obj) return `<${flatten(obj.Ref)}>`;
  }
  return JSON.stringify(node);
}
