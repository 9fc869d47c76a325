/**
 * The gpurent command's entry point: the bundle `npm run build:cli` writes
 * (dist/gpurent.mjs, the package's bin) starts here.
 */
import { CommanderError } from 'commander';
import type { CliIo } from './common';
import { CliError, EXIT } from './errors';
import { createProgram } from './program';

const io: CliIo = {
  out: (text) => process.stdout.write(text),
  progress: (text) => process.stderr.write(text),
  terminal: process.stderr.isTTY === true,
  // Ctrl-C stops following, not the leases: say so, then exit as an interrupted command does.
  onInterrupt: (notice) => {
    process.removeAllListeners('SIGINT').once('SIGINT', () => {
      process.stderr.write(notice);
      process.exit(EXIT.interrupted);
    });
  },
  // npm runs scripts from the package root; INIT_CWD is where the user typed the command.
  cwd: process.env.INIT_CWD ?? process.cwd(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

try {
  await createProgram(io).parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has printed the one-line message, or the help: asked for (exit code 0)
    // or shown because a subcommand is missing (a usage error).
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : EXIT.failed;
  }
}
