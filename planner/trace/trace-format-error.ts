/** A trace line the planner cannot read; the message names the file, the line and what is wrong. */
export class TraceFormatError extends Error {
  constructor(
    readonly source: string,
    readonly line: number,
    readonly problem: string,
  ) {
    super(`${source} line ${line}: ${problem}`);
    this.name = 'TraceFormatError';
  }
}
