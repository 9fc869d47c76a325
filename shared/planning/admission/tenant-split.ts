/** FNV-1a of a string, as a fraction in [0, 1): a deterministic, well-spread draw per lease id. */
export function unitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 2 ** 32;
}

/**
 * Tenants of unequal demand: tenant k (0-based) of n draws leases in
 * proportion to 1/(k+1) (Zipf); of 8, the first draws about three times the
 * average and the last about a third of it. Which tenant a lease goes to
 * depends on its id only, so every run splits a trace the same way.
 */
export function zipfTenantOf(leaseId: string, tenantIds: readonly string[]): string {
  const weights = tenantIds.map((_, k) => 1 / (k + 1));
  const sum = weights.reduce((total, w) => total + w, 0);
  let draw = unitHash(leaseId) * sum;
  for (let k = 0; k < tenantIds.length; k++) {
    draw -= weights[k] as number;
    if (draw < 0) return tenantIds[k] as string;
  }
  return tenantIds[tenantIds.length - 1] as string;
}
