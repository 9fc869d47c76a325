/** Single-quoted for the shell: nothing inside is expanded. */
export const shellQuote = (text: string) => `'${text.replaceAll("'", `'"'"'`)}'`;
