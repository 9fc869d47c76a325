const SECRET_LOOKING = /KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL/;
export const MASKED_VALUE = '****';

/** Env values as shown back: a name that looks secret shows only that it is set. */
export function maskedEnv(env: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env ?? {}).map(([name, value]) => [
      name,
      SECRET_LOOKING.test(name) ? MASKED_VALUE : value,
    ]),
  );
}
