import * as z from '../../shared/zod';

/** A non-negative whole number written in decimal digits, e.g. a trace second or a GPU count. */
export function wholeNumber(what: string) {
  return z
    .pipe(z.string().check(z.regex(/^\d+$/, `${what} must be a whole number`)), z.transform(Number))
    .check(z.refine(Number.isSafeInteger, `${what} is too large`));
}
