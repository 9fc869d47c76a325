import { z } from 'zod';

/** A non-negative whole number written in decimal digits, e.g. a trace second or a GPU count. */
export function wholeNumber(what: string) {
  return z
    .string()
    .regex(/^\d+$/, `${what} must be a whole number`)
    .transform(Number)
    .refine(Number.isSafeInteger, `${what} is too large`);
}
