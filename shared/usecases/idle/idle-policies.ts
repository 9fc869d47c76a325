import {
  assertTenantPolicyAllowed,
  effectiveIdlePolicy,
  type IdlePolicy,
} from '../../domain/waste/idle-policy';
import type { IdlePolicies, IdlePolicyRepository } from '../../ports/idle';

export interface IdlePolicyView extends IdlePolicies {
  /** What the evaluator applies: the stricter of the two, field by field. */
  readonly effective?: IdlePolicy | undefined;
}

export async function idlePoliciesOf(
  deps: { readonly idlePolicies: IdlePolicyRepository },
  tenantId: string,
): Promise<IdlePolicyView> {
  const policies = await deps.idlePolicies.get(tenantId);
  return { ...policies, effective: effectiveIdlePolicy(policies.admin, policies.tenant) };
}

/**
 * Stores the tenant's own policy, refused (IDLE_POLICY_LOOSER_THAN_ADMIN,
 * nothing stored) when it loosens the admin's. An admin policy tightened later
 * still wins field by field: the evaluator applies the stricter of the two.
 */
export async function putTenantIdlePolicy(
  deps: { readonly idlePolicies: IdlePolicyRepository },
  tenantId: string,
  policy: IdlePolicy,
): Promise<IdlePolicyView> {
  const { admin } = await deps.idlePolicies.get(tenantId);
  assertTenantPolicyAllowed(policy, admin);
  await deps.idlePolicies.put(tenantId, 'tenant', policy);
  return { admin, tenant: policy, effective: effectiveIdlePolicy(admin, policy) };
}
