import { StoragePrices } from '../domain/storage-prices';
import data from './aws-storage-prices.json';

/** The offline storage price table bundled with every function; provenance: its `source` field. */
export const storagePrices = new StoragePrices(data);
