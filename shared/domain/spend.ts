import type { RentalMode } from './lease';

/**
 * Money is counted as it is charged into aggregates, per tenant: month-to-date
 * counters (the whole tenant, each project label, each rental mode: what
 * budgets read as one item) and daily rollups (by mode × instance type ×
 * project, and by lease: what usage reports read). Metering adds to them in the
 * same transaction as each charge, so no report ever sums usage records.
 */
export type SpendScope =
  | { readonly kind: 'tenant' }
  | { readonly kind: 'project'; readonly project: string }
  | { readonly kind: 'mode'; readonly mode: RentalMode };

/**
 * What a charge pays for: instance time, the instance's volumes, or moving the
 * lease's data between regions.
 */
export const BILLING_DIMENSIONS = ['compute', 'storage', 'transfer'] as const;
export type BillingDimension = (typeof BILLING_DIMENSIONS)[number];
/** Dimensions with rollups of their own; compute is a day's total less them. */
export type ExtraDimension = Exclude<BillingDimension, 'compute'>;

export type Aggregate =
  | { readonly kind: 'month'; readonly month: string; readonly scope: SpendScope }
  | {
      readonly kind: 'day';
      readonly day: string;
      readonly mode: RentalMode;
      readonly instanceType: string;
      readonly project?: string | undefined;
    }
  | {
      readonly kind: 'lease-day';
      readonly day: string;
      readonly leaseId: string;
      readonly project?: string | undefined;
    }
  | {
      readonly kind: 'dimension-day';
      readonly day: string;
      readonly dimension: ExtraDimension;
      /** Kept apart per mode, so the spot saving compares compute with compute. */
      readonly mode: RentalMode;
    };

/** What a charge says about where its money goes. */
export interface ChargeScope {
  readonly leaseId: string;
  readonly mode: RentalMode;
  readonly instanceType: string;
  readonly project?: string | undefined;
}

/** The month-to-date counters one charge adds to. */
export function spendScopesOf(charge: Pick<ChargeScope, 'mode' | 'project'>): SpendScope[] {
  const scopes: SpendScope[] = [{ kind: 'tenant' }, { kind: 'mode', mode: charge.mode }];
  if (charge.project) scopes.push({ kind: 'project', project: charge.project });
  return scopes;
}

/** Every aggregate a charge running up to `atMs` adds to. */
export function aggregatesOf(charge: ChargeScope, atMs: number): Aggregate[] {
  const month = monthOfCharge(atMs);
  const day = dayOfCharge(atMs);
  return [
    ...spendScopesOf(charge).map((scope): Aggregate => ({ kind: 'month', month, scope })),
    { kind: 'day', day, mode: charge.mode, instanceType: charge.instanceType, project: charge.project },
    { kind: 'lease-day', day, leaseId: charge.leaseId, project: charge.project },
  ];
}

/** The scope a budget watches: its project, or the whole tenant. */
export const budgetScope = (project: string | undefined): SpendScope =>
  project ? { kind: 'project', project } : { kind: 'tenant' };

/** `yyyy-mm` of an instant, in UTC. */
export function monthOf(atMs: number): string {
  return new Date(atMs).toISOString().slice(0, 7);
}

/** `yyyy-mm-dd` of an instant, in UTC. */
export function dayOf(atMs: number): string {
  return new Date(atMs).toISOString().slice(0, 10);
}

/**
 * The month a charge belongs to. A charge runs up to `atMs`, so a tick at exactly
 * 00:00:00 on the 1st pays for the last seconds of the month before.
 */
export function monthOfCharge(atMs: number): string {
  return monthOf(atMs - 1);
}

/** The day a charge belongs to, by the same rule as its month. */
export function dayOfCharge(atMs: number): string {
  return dayOf(atMs - 1);
}

/** [start, end) of a `yyyy-mm` month, in UTC milliseconds. */
export function monthBounds(month: string): { startMs: number; endMs: number } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return { startMs: Date.UTC(year, monthNumber - 1, 1), endMs: Date.UTC(year, monthNumber, 1) };
}
