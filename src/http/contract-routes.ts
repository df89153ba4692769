import { readFileSync } from 'node:fs';
import type { Hono } from 'hono';
import { parse } from 'yaml';
import type { Target } from '../domain/target.ts';

const contractText = readFileSync(new URL('../../contract/openapi.yaml', import.meta.url), 'utf8');
let contractJson: unknown;

/** Routes outside the contract: the contract itself, and the target `hrmock check` reads. */
export function contractRoutes(app: Hono, target: () => Target): void {
  app.get('/openapi.yaml', (c) =>
    c.body(contractText, 200, { 'Content-Type': 'application/yaml; charset=utf-8' }),
  );
  app.get('/openapi.json', (c) => {
    contractJson ??= parse(contractText, { maxAliasCount: -1 });
    return c.json(contractJson as object);
  });
  app.get('/_mock/target', (c) =>
    c.json({
      code: 200,
      message: 'The objects hrmock check may use on this mock.',
      data: target(),
    }),
  );
}
