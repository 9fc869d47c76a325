import { readCsv } from './csv';
import { referenceData } from './paths';

export const AZURE_TRACE = 'azure-functions-requests/requests_per_minute.csv';

/** Requests per minute of the Azure Functions trace, minute 0 first. */
export function readRequestsPerMinute(): number[] {
  return readCsv(referenceData(AZURE_TRACE), ['Time (min)', 'Requests'])
    .sort((a, b) => Number(a['Time (min)']) - Number(b['Time (min)']))
    .map((row) => Number(row.Requests));
}
