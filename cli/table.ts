/** A plain-text table: a header row and left-aligned columns, empty cells as `-`. */
export function table(headers: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cells = rows.map((row) =>
    row.map((cell) => (cell === undefined || cell === null || cell === '' ? '-' : String(cell))),
  );
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...cells.map((row) => (row[column] ?? '').length)),
  );
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(headers), ...cells.map(line)].join('\n')}\n`;
}

/** Key: value lines for one object. */
export function details(pairs: readonly (readonly [string, unknown])[]): string {
  const width = Math.max(...pairs.map(([key]) => key.length));
  return `${pairs
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => `${`${key}:`.padEnd(width + 2)}${String(value)}`)
    .join('\n')}\n`;
}
