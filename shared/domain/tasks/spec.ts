import * as z from '../../zod';
import { deadlineFieldShapes } from '../deadlines/lease-fields';

/** Environment and secret names, as a shell accepts them (upper case only: no clash with the image's own). */
export const TASK_VARIABLE_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;
export const MAX_TASK_ENV_ENTRIES = 64;
export const MAX_TASK_ENV_VALUE_BYTES = 4096;
export const MAX_TASK_COMMAND_BYTES = 65_536;
export const MAX_TASK_RUNTIME_MINUTES = 43_200;
export const MAX_TASK_ATTEMPTS = 10;

/** `release`: the lease is released when the task ends (its bill closes then); `keep`: it runs on. */
export const TASK_ON_EXIT = ['release', 'keep'] as const;

/** An image reference: `[registry/]repository[:tag][@sha256:digest]`, as docker parses it. */
const IMAGE_REFERENCE =
  /^(?:[a-z0-9.-]+(?::\d+)?\/)?[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * Dynamic references SSM Run Command and CloudFormation resolve in the text
 * they are handed: `{{ssm:name}}`, `{{ssm-secure:name}}` and
 * `{{resolve:ssm|secretsmanager:…}}`. In a task's command, env value or workdir
 * they would be resolved with whatever role sends or runs the text, not the
 * lease's own scoped credentials, so a tenant could read a parameter outside
 * its prefix; secrets go through `secrets`, checked against the prefix.
 * Matched case-insensitively and with spaces after the braces, as the resolvers accept.
 */
const DYNAMIC_REFERENCE = /\{\{\s*(?:ssm|ssm-secure|resolve)\s*:/i;
const NO_REFERENCE_RULE =
  'must not contain {{ssm:, {{ssm-secure: or {{resolve: references; name secrets under task.secrets instead';
const withoutReference = z.refine<string>((text) => !DYNAMIC_REFERENCE.test(text), NO_REFERENCE_RULE);

const commandText = z.string().check(
  z.minLength(1),
  z.refine(
    (text) => bytes(text) <= MAX_TASK_COMMAND_BYTES,
    `must be at most ${MAX_TASK_COMMAND_BYTES} bytes`,
  ),
  withoutReference,
);

/** TASK_VARIABLE_NAME in words, for the 400s. */
const VARIABLE_NAME_RULE = 'must match [A-Z_][A-Z0-9_]{0,127}';
const variableName = z.string().check(z.regex(TASK_VARIABLE_NAME, VARIABLE_NAME_RULE));
/** A record's bad key is reported as "Invalid key in record" unless told what keys it takes. */
const namedByVariables = {
  error: (issue: { code?: string }) =>
    issue.code === 'invalid_key' ? `names ${VARIABLE_NAME_RULE}` : undefined,
};

const entriesAtMost = (max: number) =>
  z.refine<Record<string, string>>((record) => Object.keys(record).length <= max, `at most ${max} entries`);

export const taskSpecSchema = z.strictObject({
  image: z.optional(
    z
      .string()
      .check(
        z.maxLength(512),
        z.regex(
          IMAGE_REFERENCE,
          'must be a container image reference such as 123456789012.dkr.ecr.us-east-1.amazonaws.com/train:v3',
        ),
      ),
  ),
  command: z.union([
    z.array(z.string().check(withoutReference)).check(
      z.minLength(1),
      z.refine(
        (argv) => bytes(argv.join(' ')) <= MAX_TASK_COMMAND_BYTES,
        `must be at most ${MAX_TASK_COMMAND_BYTES} bytes`,
      ),
    ),
    commandText,
  ]),
  env: z.optional(
    z
      .record(
        variableName,
        z.string().check(
          z.refine(
            (value) => bytes(value) <= MAX_TASK_ENV_VALUE_BYTES,
            `must be at most ${MAX_TASK_ENV_VALUE_BYTES} bytes`,
          ),
          withoutReference,
        ),
        namedByVariables,
      )
      .check(entriesAtMost(MAX_TASK_ENV_ENTRIES)),
  ),
  secrets: z.optional(
    z
      .record(variableName, z.string().check(z.minLength(1), z.maxLength(2048)), namedByVariables)
      .check(entriesAtMost(MAX_TASK_ENV_ENTRIES)),
  ),
  // The path's characters already exclude braces; the check says why when one is tried.
  workdir: z.optional(
    z.string().check(withoutReference, z.regex(/^\/[\w./-]{0,1023}$/, 'must be an absolute path')),
  ),
  maxRuntimeMinutes: z.optional(z.number().check(z.int(), z.gte(1), z.lte(MAX_TASK_RUNTIME_MINUTES))),
  onExit: z._default(z.enum(TASK_ON_EXIT), 'release'),
  maxAttempts: z._default(z.number().check(z.int(), z.gte(1), z.lte(MAX_TASK_ATTEMPTS)), 3),
  retryOnFailure: z._default(z.boolean(), false),
  // Checked against the clock, with each other and with the lease's mode when the lease is created.
  deadline: z.optional(deadlineFieldShapes.deadline),
  workMinutes: z.optional(deadlineFieldShapes.workMinutes),
  restartMinutes: z.optional(deadlineFieldShapes.restartMinutes),
});

/** The task as the tenant asked for it (defaults applied). */
export type TaskSpec = z.infer<typeof taskSpecSchema>;

/** Where a secret reference may point: an SSM parameter or a Secrets Manager secret under the tenant's prefix. */
export type SecretSource = 'ssm' | 'secretsmanager';

/**
 * Which store a reference names, if it lies under the tenant's prefix
 * (`/gpurent/<tenant>/…` parameters, `gpurent/<tenant>/…` secrets, by name or
 * ARN). The attempt resolves them with the lease's machine credentials, whose
 * session policy names only these prefixes (`leaseMachinePolicy`; the instance
 * role reads no parameter or secret at all): anything else is refused here,
 * with a 400, rather than failing on the machine.
 */
export function secretSourceOf(reference: string, tenantId: string): SecretSource | undefined {
  const parameter = /^(?:arn:aws[\w-]*:ssm:[a-z0-9-]+:\d{12}:parameter)?(\/.+)$/.exec(reference)?.[1];
  if (parameter?.startsWith(`/gpurent/${tenantId}/`)) return 'ssm';
  const secret = /^(?:arn:aws[\w-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:)?(.+)$/.exec(reference)?.[1];
  if (secret?.startsWith(`gpurent/${tenantId}/`) && !reference.startsWith('/')) return 'secretsmanager';
  return undefined;
}

/** The secret names whose reference lies outside the tenant's prefix. */
export function secretsOutsidePrefix(spec: Pick<TaskSpec, 'secrets'>, tenantId: string): string[] {
  return Object.entries(spec.secrets ?? {})
    .filter(([, reference]) => secretSourceOf(reference, tenantId) === undefined)
    .map(([name]) => name);
}
