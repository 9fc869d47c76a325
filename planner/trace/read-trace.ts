import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { USAGE_EXPORT_HEADER, USAGE_EXPORT_HEADER_V1 } from '../../shared/domain/usage-export';
import type { DemandTrace } from '../../shared/planning/demand-trace';
import { ALIBABA_HEADER, parseAlibabaRows } from './alibaba';
import { splitCsv } from './csv';
import { TraceFormatError } from './trace-format-error';
import { parseUsageExportRows } from './usage-export';

/** Reads a demand trace, telling the two formats apart by their header line. */
export function parseTrace(text: string, source: string): DemandTrace {
  const { header, rows } = splitCsv(text);
  let trace: DemandTrace;
  if (header === ALIBABA_HEADER) {
    trace = parseAlibabaRows(rows, source);
  } else if (header === USAGE_EXPORT_HEADER || header === USAGE_EXPORT_HEADER_V1) {
    trace = parseUsageExportRows(rows, header.split(','), source);
  } else {
    throw new TraceFormatError(
      source,
      1,
      `unknown header "${header}"; expected the Alibaba pod list (${ALIBABA_HEADER}) ` +
        `or the usage export (${USAGE_EXPORT_HEADER})`,
    );
  }
  if (trace.leases.length === 0) {
    throw new TraceFormatError(source, 1, 'the trace holds no lease with at least one GPU');
  }
  return { ...trace, leases: [...trace.leases].sort((a, b) => a.startMs - b.startMs) };
}

export async function readTrace(path: string): Promise<DemandTrace> {
  return parseTrace(await readFile(path, 'utf8'), basename(path));
}
