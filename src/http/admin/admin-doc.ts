import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** The admin API's own contract (contract/admin.yaml), shipped beside the service's. */
const adminText = readFileSync(new URL('../../../contract/admin.yaml', import.meta.url), 'utf8');

let doc: unknown;

/** The admin contract as JSON, parsed on its first request (start-up stays free of it). */
export function adminDoc(): unknown {
  doc ??= parse(adminText);
  return doc;
}
