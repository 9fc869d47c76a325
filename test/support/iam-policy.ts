import type { PolicyDocument } from '../../shared/domain/iam-policy';

/** A request as IAM sees it: the action, the resource ARN and the request's condition keys. */
export interface PolicyRequest {
  readonly action: string;
  readonly resource: string;
  readonly context?: Readonly<Record<string, string>>;
}

/** IAM's wildcard match: `*` any run of characters, `?` one character. */
const matches = (pattern: string, value: string) =>
  new RegExp(
    `^${pattern
      .split('')
      .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('')}$`,
  ).test(value);

const CONDITIONS: Record<string, (expected: string, actual: string) => boolean> = {
  StringEquals: (expected, actual) => expected === actual,
  StringLike: (expected, actual) => matches(expected, actual),
};

/**
 * Whether the document allows the request, evaluated as IAM evaluates Allow
 * statements: an action and a resource pattern must match, and every
 * condition key must be present and match one of its values (a condition
 * operator the evaluator does not know denies, so a test cannot pass by it).
 */
export function allows(document: PolicyDocument, request: PolicyRequest): boolean {
  return document.Statement.some(
    (statement) =>
      statement.Effect === 'Allow' &&
      statement.Action.some((action) => matches(action, request.action)) &&
      statement.Resource.some((resource) => matches(resource, request.resource)) &&
      Object.entries(statement.Condition ?? {}).every(([operator, keys]) => {
        const test = CONDITIONS[operator];
        return (
          test !== undefined &&
          Object.entries(keys).every(([key, expected]) => {
            const actual = request.context?.[key];
            const values = typeof expected === 'string' ? [expected] : expected;
            return actual !== undefined && values.some((value) => test(value, actual));
          })
        );
      }),
  );
}
