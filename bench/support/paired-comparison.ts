/**
 * Whether one policy costs more than another on the same jobs by more than
 * the sample of start times can tell apart. A setting's mean over 40 starts
 * moves by a few percent with the starts drawn, so "behind on a setting"
 * read off two means counts coin flips: two equal policies would each be
 * behind on about half the settings. The test here is a one-sided paired
 * sign-flip (randomization) test on the job-by-job differences, which
 * assumes nothing of their shape (they are mostly zero with a long tail),
 * and Holm's step-down correction over all settings at once.
 */
import { seededRandom } from './random';

/** Sign flips drawn per comparison: the p-value's resolution is about 1 / FLIPS. */
export const FLIPS = 20_000;

/**
 * The one-sided p-value of "the differences' mean is above zero" under the
 * null that each difference is as likely positive as negative: the share of
 * random sign flips whose sum reaches the observed one. 1 when nothing differs.
 */
export function signFlipPValue(differences: readonly number[], seed = 20): number {
  const observed = differences.reduce((sum, d) => sum + d, 0);
  if (differences.every((d) => d === 0)) return 1;
  const random = seededRandom(seed);
  // Float sums of the same terms in another order differ in the last bits: a tie counts as reaching.
  const tolerance = 1e-9 * differences.reduce((sum, d) => sum + Math.abs(d), 0);
  let reached = 0;
  for (let flip = 0; flip < FLIPS; flip++) {
    let sum = 0;
    for (const d of differences) sum += random() < 0.5 ? -d : d;
    if (sum >= observed - tolerance) reached += 1;
  }
  return (reached + 1) / (FLIPS + 1);
}

/**
 * Holm's step-down procedure: which hypotheses are rejected with the chance
 * of any false rejection among all of them at most `alpha`.
 */
export function holmRejections(pValues: readonly number[], alpha = 0.05): boolean[] {
  const order = pValues.map((p, index) => ({ p, index })).sort((a, b) => a.p - b.p);
  const rejected = pValues.map(() => false);
  for (const [rank, { p, index }] of order.entries()) {
    if (p > alpha / (pValues.length - rank)) break;
    rejected[index] = true;
  }
  return rejected;
}

/** Job by job, `a` minus `b`; both lists are the same jobs in the same order. */
export function pairedDifferences(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new RangeError(`paired lists of ${a.length} and ${b.length} jobs`);
  return a.map((value, i) => value - (b[i] as number));
}
