import * as z from '../../shared/zod';
import { TraceFormatError } from './trace-format-error';

export interface CsvRow {
  /** 1-based line number in the file (the header is line 1). */
  readonly line: number;
  readonly fields: readonly string[];
}

/**
 * Splits a simple CSV (no quoted fields: neither trace format has any) into
 * its header and data rows, tolerating CRLF, a BOM and blank lines.
 */
export function splitCsv(text: string): { header: string; rows: CsvRow[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const rows: CsvRow[] = [];
  for (let index = 1; index < lines.length; index += 1) {
    const content = lines[index] ?? '';
    if (content.trim() !== '') rows.push({ line: index + 1, fields: content.split(',') });
  }
  return { header: (lines[0] ?? '').trim(), rows };
}

/**
 * Validates one row against a schema keyed by column name. The first problem
 * becomes a TraceFormatError naming the line, the column and the value found.
 */
export function parseRow<T>(
  schema: z.core.$ZodType<T>,
  columns: readonly string[],
  row: CsvRow,
  source: string,
): T {
  if (row.fields.length !== columns.length) {
    throw new TraceFormatError(
      source,
      row.line,
      `expected ${columns.length} fields (${columns.join(',')}), found ${row.fields.length}`,
    );
  }
  const record = Object.fromEntries(columns.map((column, i) => [column, row.fields[i]]));
  const parsed = z.safeParse(schema, record);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const column = String(issue?.path[0] ?? '');
  throw new TraceFormatError(source, row.line, `${column} "${record[column] ?? ''}": ${issue?.message}`);
}
