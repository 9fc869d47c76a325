import { type InstanceOffering, PriceCatalog } from '../domain/catalog';
import data from './aws-gpu-prices.json';
import { storagePrices } from './storage';

/**
 * The offline price catalog bundled with every function, GPU instances and
 * storage. Provenance: the `source` fields of aws-gpu-prices.json (copied from
 * ../shared/data/aws-gpu-prices) and aws-storage-prices.json.
 */
export const priceCatalog = new PriceCatalog(data.instances as unknown as InstanceOffering[], storagePrices);
