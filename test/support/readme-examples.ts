/**
 * The shell examples of README.md: every ```console block's `$ ` commands
 * (with their `\` continuation lines; output lines are left out), and the
 * marker on the line before the block, if any:
 * `<!-- readme-test: skip: <reason> -->` (not run: needs AWS, or starts the stack)
 * or `<!-- readme-test: in the checkout -->` (run from the repository root).
 */
export interface ConsoleBlock {
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly commands: readonly string[];
  readonly skip?: string;
  readonly inCheckout: boolean;
}

const MARKER = /^<!-- readme-test: (skip: (?<reason>.+)|in the checkout) -->$/;

export function consoleBlocks(markdown: string): ConsoleBlock[] {
  const lines = markdown.split('\n');
  const blocks: ConsoleBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```console') continue;
    const marker = MARKER.exec(lines[i - 1] ?? '');
    const commands: string[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j] !== '```'; j++) {
      const text = lines[j] ?? '';
      if (!text.startsWith('$ ')) continue;
      let command = text.slice(2);
      while (command.endsWith('\\') && j + 1 < lines.length) command += `\n${lines[++j]}`;
      commands.push(command);
    }
    blocks.push({
      line: i + 1,
      commands,
      skip: marker?.groups?.reason,
      inCheckout: marker?.[1] === 'in the checkout',
    });
    i = j;
  }
  return blocks;
}

/** A `\` followed by a comment ends the command there: the next line runs on its own. */
export const brokenContinuations = (command: string) =>
  command.split('\n').filter((line) => /\\\s+#/.test(line));
