import type { LeaseInstance } from '../lease';
import type { MicroUsd } from '../money';

/**
 * What running instances cost per hour, per tenant and per tenant's project:
 * the rate a forecast carries to the month's end.
 */
export function runRates(
  instances: readonly Pick<LeaseInstance, 'tenantId' | 'project' | 'priceMicroUsdPerHour'>[],
): (tenantId: string, project?: string) => MicroUsd {
  const rates = new Map<string, MicroUsd>();
  const add = (key: string, rate: MicroUsd) => rates.set(key, (rates.get(key) ?? 0) + rate);
  for (const instance of instances) {
    add(instance.tenantId, instance.priceMicroUsdPerHour);
    if (instance.project) add(`${instance.tenantId}\n${instance.project}`, instance.priceMicroUsdPerHour);
  }
  return (tenantId, project) => rates.get(project ? `${tenantId}\n${project}` : tenantId) ?? 0;
}
