import type { LeaseView } from '../domain/lease';
import type { LeaseRepository } from '../ports/lease-repository';

const PAGE = 100;

/** Every lease of a tenant with its instances, page by page (reports over a tenant's whole history). */
export async function allLeasesOf(
  leases: Pick<LeaseRepository, 'list'>,
  tenantId: string,
): Promise<LeaseView[]> {
  const all: LeaseView[] = [];
  let cursor: string | undefined;
  do {
    const page = await leases.list(tenantId, PAGE, cursor);
    all.push(...page.leases);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}
