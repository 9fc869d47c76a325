import { ClientError } from '../../client-error';
import * as z from '../../zod';
import { PROJECT_PATTERN } from '../budgets/budget';
import { type RentalMode, WORKLOADS, type Workload } from '../lease';

/**
 * What happens once a lease is found idle, from the mildest to the strictest:
 * tell the tenant; release interruptible leases only (batch or spot, as a
 * `stop-interruptible` budget counts them) and tell about the rest; release
 * any lease.
 */
export const IDLE_ACTIONS = ['notify', 'release-interruptible-only', 'release'] as const;
export type IdleAction = (typeof IDLE_ACTIONS)[number];

export const DEFAULT_BELOW_PERCENT = 5;
export const DEFAULT_FOR_MINUTES = 30;
/** Shorter windows mistake a checkpoint or a data-loading pause for idleness. */
export const MIN_FOR_MINUTES = 10;
export const MAX_FOR_MINUTES = 1440;

export const idlePolicySchema = z.strictObject({
  /** A GPU is below the line in a minute whose utilization sample is under this percentage. */
  belowPercent: z._default(
    z.number().check(z.gte(0, 'must be at least 0'), z.lte(100, 'must be at most 100')),
    DEFAULT_BELOW_PERCENT,
  ),
  /** How long every GPU of a lease must stay below the line. */
  forMinutes: z._default(
    z
      .int('must be a whole number of minutes')
      .check(
        z.gte(MIN_FOR_MINUTES, `must be at least ${MIN_FOR_MINUTES} minutes`),
        z.lte(MAX_FOR_MINUTES, `must be at most ${MAX_FOR_MINUTES} minutes (a day)`),
      ),
    DEFAULT_FOR_MINUTES,
  ),
  action: z.enum(IDLE_ACTIONS),
  /** Leases of these workloads or projects are never acted on. */
  exempt: z._default(
    z.strictObject({
      workloads: z._default(z.array(z.enum(WORKLOADS)), []),
      projects: z._default(
        z.array(z.string().check(z.regex(PROJECT_PATTERN, 'must be a project label (a-z, 0-9, -)'))),
        [],
      ),
    }),
    { workloads: [], projects: [] },
  ),
});

export type IdlePolicy = z.output<typeof idlePolicySchema>;
export type IdlePolicyInput = z.input<typeof idlePolicySchema>;

/** The fields a tenant policy may not set looser than the admin's. */
export type IdlePolicyField = 'belowPercent' | 'forMinutes' | 'action' | 'exempt';

/**
 * A tenant's policy would loosen the one the admin set (API: 409
 * `IDLE_POLICY_LOOSER_THAN_ADMIN`); nothing is stored.
 */
export class IdlePolicyLooserThanAdminError extends ClientError {
  constructor(readonly fields: readonly { field: IdlePolicyField; tenant: string; admin: string }[]) {
    super(
      409,
      'IDLE_POLICY_LOOSER_THAN_ADMIN',
      `The admin's idle policy is stricter; a tenant policy may only tighten it: ${fields
        .map((f) => `${f.field} ${f.tenant} is looser than ${f.admin}`)
        .join('; ')}`,
      undefined,
      fields.map((f) => ({ path: f.field, message: `${f.tenant} is looser than the admin's ${f.admin}` })),
    );
    this.name = 'IdlePolicyLooserThanAdminError';
  }
}

const actionRank = (action: IdleAction) => IDLE_ACTIONS.indexOf(action);
const list = (values: readonly string[]) => `[${values.join(', ')}]`;

/**
 * The stricter of two policies, field by field. Stricter means more leases
 * found idle, sooner, with more done about it:
 * - `belowPercent`: the higher line (more minutes count as below it);
 * - `forMinutes`: the shorter window;
 * - `action`: the later one in IDLE_ACTIONS (release > release-interruptible-only > notify);
 * - `exempt`: only what both exempt (the intersection), so neither can exempt a
 *   workload or project the other holds to the policy.
 */
export function stricterIdlePolicy(a: IdlePolicy, b: IdlePolicy): IdlePolicy {
  return {
    belowPercent: Math.max(a.belowPercent, b.belowPercent),
    forMinutes: Math.min(a.forMinutes, b.forMinutes),
    action: actionRank(a.action) >= actionRank(b.action) ? a.action : b.action,
    exempt: {
      workloads: a.exempt.workloads.filter((w) => b.exempt.workloads.includes(w)),
      projects: a.exempt.projects.filter((p) => b.exempt.projects.includes(p)),
    },
  };
}

/** The fields where `tenant` is looser than `admin`; empty when it only tightens or matches. */
export function looserFields(
  tenant: IdlePolicy,
  admin: IdlePolicy,
): { field: IdlePolicyField; tenant: string; admin: string }[] {
  const loose: { field: IdlePolicyField; tenant: string; admin: string }[] = [];
  if (tenant.belowPercent < admin.belowPercent) {
    loose.push({ field: 'belowPercent', tenant: `${tenant.belowPercent}`, admin: `${admin.belowPercent}` });
  }
  if (tenant.forMinutes > admin.forMinutes) {
    loose.push({ field: 'forMinutes', tenant: `${tenant.forMinutes}`, admin: `${admin.forMinutes}` });
  }
  if (actionRank(tenant.action) < actionRank(admin.action)) {
    loose.push({ field: 'action', tenant: tenant.action, admin: admin.action });
  }
  const extraWorkloads = tenant.exempt.workloads.filter((w) => !admin.exempt.workloads.includes(w));
  const extraProjects = tenant.exempt.projects.filter((p) => !admin.exempt.projects.includes(p));
  if (extraWorkloads.length > 0 || extraProjects.length > 0) {
    loose.push({
      field: 'exempt',
      tenant: `exempts ${list([...extraWorkloads, ...extraProjects])}`,
      admin: `the admin's exemptions ${list([...admin.exempt.workloads, ...admin.exempt.projects])}`,
    });
  }
  return loose;
}

/** Refuses a tenant policy that loosens the admin's (none set: anything goes). */
export function assertTenantPolicyAllowed(tenant: IdlePolicy, admin: IdlePolicy | undefined): void {
  if (admin === undefined) return;
  const loose = looserFields(tenant, admin);
  if (loose.length > 0) throw new IdlePolicyLooserThanAdminError(loose);
}

/**
 * The policy that applies: the stricter of the two when both are set (an
 * admin policy tightened after the tenant's still wins field by field), the
 * one set otherwise, none when neither is.
 */
export function effectiveIdlePolicy(
  admin: IdlePolicy | undefined,
  tenant: IdlePolicy | undefined,
): IdlePolicy | undefined {
  if (admin === undefined) return tenant;
  if (tenant === undefined) return admin;
  return stricterIdlePolicy(admin, tenant);
}

/** What a lease is to the policy: its workload, project and the modes its instances run in. */
export interface IdleSubject {
  readonly workload: Workload;
  readonly project?: string | undefined;
  readonly modes: readonly RentalMode[];
}

/** What the policy does to a lease found idle: nothing (exempt), tell, or release. */
export type IdleOutcome = 'exempt' | 'notify' | 'release';

export function idleOutcome(policy: IdlePolicy, lease: IdleSubject): IdleOutcome {
  if (policy.exempt.workloads.includes(lease.workload)) return 'exempt';
  if (lease.project !== undefined && policy.exempt.projects.includes(lease.project)) return 'exempt';
  if (policy.action === 'release') return 'release';
  if (policy.action === 'notify') return 'notify';
  const interruptible = lease.workload === 'batch' || lease.modes.includes('spot');
  return interruptible ? 'release' : 'notify';
}
