import { accountQuotaOverrides, accountQuotas, gpuRegionList } from '../../shared/lambda/fleet-capacity';
import { ec2Compute } from '../../shared/lambda/placement';
import type { Wiring } from '../../shared/lambda/port-factory';
import { admissionStore, commitmentRepository } from '../../shared/lambda/stores';
import { priceCatalogValue, wallClock } from '../../shared/lambda/values';

/**
 * The capacity refresh's ports: the pools' limits (admission table), the
 * account's vCPU quotas (Service Quotas, the one function that reads them)
 * and the operator's overrides, the commitments, and the fleet's live
 * instances (DescribeInstances only), for what runs outside admission.
 */
export const capacityRefreshWiring = {
  admission: admissionStore('readWrite'),
  accountQuotas: accountQuotas(),
  quotaOverrides: accountQuotaOverrides(),
  commitments: commitmentRepository('read'),
  compute: ec2Compute('instances'),
  catalog: priceCatalogValue(),
  regions: gpuRegionList(),
  now: wallClock(),
} satisfies Wiring;
