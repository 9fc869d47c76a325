import { readFileSync } from 'node:fs';

export class CsvError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'CsvError';
  }
}

/**
 * Rows of a simple CSV file (no quoted fields, as in the reference data) as
 * records keyed by the header, checking that the needed columns are there.
 */
export function readCsv<Column extends string>(
  path: string,
  columns: readonly Column[],
): Record<Column, string>[] {
  const [header, ...lines] = readFileSync(path, 'utf8').trim().split(/\r?\n/);
  const names = header?.split(',') ?? [];
  const indexes = columns.map((column) => {
    const index = names.indexOf(column);
    if (index < 0) throw new CsvError(path, `missing column "${column}" (has ${names.join(', ')})`);
    return index;
  });
  return lines.map((line) => {
    const cells = line.split(',');
    return Object.fromEntries(
      columns.map((column, i) => [column, cells[indexes[i] as number] ?? '']),
    ) as Record<Column, string>;
  });
}
