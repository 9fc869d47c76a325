import type { LeaseView } from '../domain/lease';
import type { LeaseRepository } from '../ports/lease-repository';

/** Every lease of a tenant, newest first. */
export async function allLeasesOf(leases: LeaseRepository, tenantId: string): Promise<LeaseView[]> {
  const all: LeaseView[] = [];
  let cursor: string | undefined;
  do {
    const page = await leases.list(tenantId, 100, cursor);
    all.push(...page.leases);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}
