/** The error envelope of the gpurent API. */
type ErrorBody = {
  error?: { code?: string; message?: string; details?: { path: string; message: string }[] };
};

/** Longer lists of choices are cut to their first few, with the count: the line stays a line. */
const LIST_SHOWN = 5;

/** "use one of: a, b, c, … (36 in all)" instead of the whole list. */
function shortenChoices(message: string): string {
  return message.replace(/(use (?:one|some) of: )(.+)$/, (whole, lead: string, list: string) => {
    const choices = list.split(', ');
    if (choices.length <= LIST_SHOWN) return whole;
    return `${lead}${choices.slice(0, LIST_SHOWN).join(', ')}, … (${choices.length} in all)`;
  });
}

/**
 * One line for a refused request: the API's code and message, the details only
 * where they add to the message (a field error repeats it), long lists of
 * choices cut, and for a refused token what to do about it.
 */
export function apiErrorLine(status: number, statusText: string, body: unknown, apiUrl: string): string {
  const error = (body as ErrorBody | undefined)?.error;
  if (status === 401) {
    return `the API at ${apiUrl} refused the token (401 ${error?.code ?? statusText}): it is wrong, expired or for another API; run \`gpurent login\` again`;
  }
  const message = error?.message ?? statusText;
  const details = (error?.details ?? [])
    .filter((d) => !message.includes(d.message))
    .map((d) => `${d.path}: ${d.message}`)
    .join('; ');
  return `${error?.code ?? `HTTP ${status}`}: ${shortenChoices(message)}${details ? ` (${details})` : ''}`;
}
