/**
 * The progress file a task writes (`$GPURENT_PROGRESS_FILE`): the minutes of
 * work its latest checkpoint holds, as a plain number. It lives at the root of
 * the lease's checkpoint prefix under this name, so it travels with the
 * checkpoint it describes and is as old as the last sync that carried it.
 */
export const PROGRESS_FILE_NAME = 'gpurent-progress';

const MS_PER_MINUTE = 60_000;

/** The work saved, or undefined for a file that holds no non-negative number (a task mid-write, or a stray file). */
export function parseProgressFile(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined;
  return Math.round(Number(trimmed) * MS_PER_MINUTE);
}
