import { type InstanceOffering, PriceCatalog } from '../domain/catalog';
import data from './aws-gpu-prices.json';

/**
 * The offline price catalog bundled with every function. Provenance: the
 * `source` field of aws-gpu-prices.json (copied from ../shared/data/aws-gpu-prices).
 */
export const priceCatalog = new PriceCatalog(data.instances as unknown as InstanceOffering[]);
