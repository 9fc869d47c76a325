import * as z from './zod';

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates environment configuration once, at module load, so a
 * misconfigured function fails on its first cold start with a message that
 * names every missing or malformed variable.
 */
export function readConfig<Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<z.ZodMiniObject<Shape>> {
  const result = z.object(shape).safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`),
    );
  }
  return result.data;
}

export const nonEmpty = z.string().check(z.trim(), z.minLength(1, 'must be set'));
export const commaList = z.pipe(
  nonEmpty,
  z.transform((value: string) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  ),
);

/** A variable holding JSON, parsed (a schema piped after it checks the shape). */
export const jsonText = z.pipe(
  z.string(),
  z.transform((text: string, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.issues.push({ code: 'custom', message: 'must be JSON', input: text });
      return z.NEVER;
    }
  }),
);
