import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WORKLOADS } from '../../../../shared/domain/lease';
import {
  assertTenantPolicyAllowed,
  effectiveIdlePolicy,
  IDLE_ACTIONS,
  type IdlePolicy,
  IdlePolicyLooserThanAdminError,
  idleOutcome,
  idlePolicySchema,
  looserFields,
  stricterIdlePolicy,
} from '../../../../shared/domain/waste/idle-policy';
import * as z from '../../../../shared/zod';

const parse = (input: unknown) => z.parse(idlePolicySchema, input);

const admin: IdlePolicy = parse({
  belowPercent: 10,
  forMinutes: 60,
  action: 'release-interruptible-only',
  exempt: { workloads: ['inference'], projects: ['demo'] },
});

describe('idle policy schema', () => {
  it('fills the defaults: 5 %, 30 minutes, no exemptions', () => {
    expect(parse({ action: 'notify' })).toEqual({
      belowPercent: 5,
      forMinutes: 30,
      action: 'notify',
      exempt: { workloads: [], projects: [] },
    });
  });

  it.each([
    [{ action: 'notify', belowPercent: 101 }, 'belowPercent'],
    [{ action: 'notify', belowPercent: -1 }, 'belowPercent'],
    [{ action: 'notify', forMinutes: 9 }, 'forMinutes'],
    [{ action: 'notify', forMinutes: 1441 }, 'forMinutes'],
    [{ action: 'notify', forMinutes: 30.5 }, 'forMinutes'],
    [{ action: 'shutdown' }, 'action'],
    [{}, 'action'],
    [{ action: 'notify', exempt: { workloads: ['gaming'] } }, 'exempt'],
    [{ action: 'notify', exempt: { projects: ['Not A Label'] } }, 'exempt'],
    [{ action: 'notify', exempt: { teams: [] } }, 'exempt'],
    [{ action: 'notify', keepAlive: true }, ''],
  ])('refuses %j (problem at %s)', (input, field) => {
    const result = z.safeParse(idlePolicySchema, input);
    expect(result.success).toBe(false);
    expect(String(result.error?.issues[0]?.path[0] ?? '')).toBe(field);
  });
});

describe('the stricter of two policies', () => {
  it('takes the higher line, the shorter window, the stronger action and only shared exemptions', () => {
    const tenant = parse({
      belowPercent: 3,
      forMinutes: 20,
      action: 'notify',
      exempt: { workloads: ['inference', 'batch'], projects: [] },
    });
    expect(stricterIdlePolicy(admin, tenant)).toEqual({
      belowPercent: 10,
      forMinutes: 20,
      action: 'release-interruptible-only',
      exempt: { workloads: ['inference'], projects: [] },
    });
  });

  it('refuses a tenant policy that loosens the admin one, naming every loosened field, with a 409 code', () => {
    const tenant = parse({
      belowPercent: 2,
      forMinutes: 90,
      action: 'notify',
      exempt: { workloads: ['batch'] },
    });
    let caught: unknown;
    try {
      assertTenantPolicyAllowed(tenant, admin);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(IdlePolicyLooserThanAdminError);
    const error = caught as IdlePolicyLooserThanAdminError;
    expect(error.code).toBe('IDLE_POLICY_LOOSER_THAN_ADMIN');
    expect(error.fields.map((f) => f.field)).toEqual(['belowPercent', 'forMinutes', 'action', 'exempt']);
  });

  it('accepts a tenant policy that only tightens, and any policy when no admin policy is set', () => {
    const tighter = parse({
      belowPercent: 20,
      forMinutes: 15,
      action: 'release',
      exempt: { projects: ['demo'] },
    });
    expect(() => assertTenantPolicyAllowed(tighter, admin)).not.toThrow();
    expect(() =>
      assertTenantPolicyAllowed(parse({ action: 'notify', forMinutes: 1440 }), undefined),
    ).not.toThrow();
  });

  it('applies the admin policy when the tenant has none, and none when neither is set', () => {
    expect(effectiveIdlePolicy(admin, undefined)).toEqual(admin);
    expect(effectiveIdlePolicy(undefined, undefined)).toBeUndefined();
  });

  const policies = fc.record({
    belowPercent: fc.integer({ min: 0, max: 100 }),
    forMinutes: fc.integer({ min: 10, max: 1440 }),
    action: fc.constantFrom(...IDLE_ACTIONS),
    exempt: fc.record({
      workloads: fc.uniqueArray(fc.constantFrom(...WORKLOADS)),
      projects: fc.uniqueArray(fc.constantFrom('a', 'b', 'c')),
    }),
  });

  it('the effective policy is never looser than either policy, whichever was set last', () => {
    fc.assert(
      fc.property(policies, policies, (a, b) => {
        const effective = effectiveIdlePolicy(a, b) as IdlePolicy;
        expect(looserFields(effective, a)).toEqual([]);
        expect(looserFields(effective, b)).toEqual([]);
      }),
    );
  });
});

describe('what a policy does to an idle lease', () => {
  const release = parse({ action: 'release-interruptible-only', exempt: { projects: ['demo'] } });

  it('releases only interruptible leases under release-interruptible-only, exempts exempt projects', () => {
    expect(idleOutcome(release, { workload: 'batch', modes: ['on-demand'] })).toBe('release');
    expect(idleOutcome(release, { workload: 'training', modes: ['spot'] })).toBe('release');
    expect(idleOutcome(release, { workload: 'training', modes: ['on-demand'] })).toBe('notify');
    expect(idleOutcome(release, { workload: 'batch', project: 'demo', modes: ['spot'] })).toBe('exempt');
    expect(idleOutcome(admin, { workload: 'inference', modes: ['reserved'] })).toBe('exempt');
  });
});
