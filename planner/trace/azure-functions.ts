import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_DATA_DIR } from '../../shared/adapters/reference-data';
import { splitCsv } from './csv';

export const AZURE_TRACE = 'azure-functions-requests/requests_per_minute.csv';
const HEADER = 'Time (min),Requests';

/** Requests per minute of the Azure Functions trace (under `dataDir`), minute 0 first. */
export function readRequestsPerMinute(dataDir = DEFAULT_DATA_DIR): number[] {
  const path = join(dataDir, AZURE_TRACE);
  const { header, rows } = splitCsv(readFileSync(path, 'utf8'));
  if (header !== HEADER) throw new Error(`${path}: expected the header "${HEADER}", found "${header}"`);
  return rows
    .map((row) => ({ minute: Number(row.fields[0]), requests: Number(row.fields[1]) }))
    .sort((a, b) => a.minute - b.minute)
    .map((row) => row.requests);
}
