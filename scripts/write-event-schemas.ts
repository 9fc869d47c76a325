import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { eventJsonSchemas } from '../shared/events/json-schemas';

/** Writes docs/events/<Type>.v<N>.json from the event registry (a test keeps them equal). */
const dir = new URL('../docs/events/', import.meta.url);
mkdirSync(dir, { recursive: true });
const schemas = eventJsonSchemas();
for (const stale of readdirSync(dir).filter((name) => name.endsWith('.json') && !(name in schemas))) {
  rmSync(new URL(stale, dir));
}
for (const [name, schema] of Object.entries(schemas)) {
  writeFileSync(new URL(name, dir), `${JSON.stringify(schema, null, 2)}\n`);
}
