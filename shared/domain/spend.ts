import type { RentalMode } from './lease';

/**
 * Month-to-date spend is kept as counters per tenant and month, one per scope:
 * the whole tenant, each project label, each rental mode and each lease. Metering
 * adds to them in the same transaction as each charge, so a budget reads its
 * spend as one item and never sums usage rows.
 */
export type SpendScope =
  | { readonly kind: 'tenant' }
  | { readonly kind: 'project'; readonly project: string }
  | { readonly kind: 'mode'; readonly mode: RentalMode }
  | { readonly kind: 'lease'; readonly leaseId: string };

/** What a charge says about where its money goes. */
export interface ChargeScope {
  readonly leaseId: string;
  readonly mode: RentalMode;
  readonly project?: string | undefined;
}

/** Every counter one charge adds to. */
export function spendScopesOf(charge: ChargeScope): SpendScope[] {
  const scopes: SpendScope[] = [
    { kind: 'tenant' },
    { kind: 'mode', mode: charge.mode },
    { kind: 'lease', leaseId: charge.leaseId },
  ];
  if (charge.project) scopes.push({ kind: 'project', project: charge.project });
  return scopes;
}

/** The scope a budget watches: its project, or the whole tenant. */
export const budgetScope = (project: string | undefined): SpendScope =>
  project ? { kind: 'project', project } : { kind: 'tenant' };

/** `yyyy-mm` of an instant, in UTC. */
export function monthOf(atMs: number): string {
  return new Date(atMs).toISOString().slice(0, 7);
}

/**
 * The month a charge belongs to. A charge runs up to `atMs`, so a tick at exactly
 * 00:00:00 on the 1st pays for the last seconds of the month before.
 */
export function monthOfCharge(atMs: number): string {
  return monthOf(atMs - 1);
}

/** [start, end) of a `yyyy-mm` month, in UTC milliseconds. */
export function monthBounds(month: string): { startMs: number; endMs: number } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return { startMs: Date.UTC(year, monthNumber - 1, 1), endMs: Date.UTC(year, monthNumber, 1) };
}
