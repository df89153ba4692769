import type { Hono } from 'hono';
import type { Target } from '../hr/target.ts';
import { contractDoc, contractText } from './contract-doc.ts';

/** Routes outside the contract: the contract itself, and the target `hrmock check` reads. */
export function contractRoutes(app: Hono, target: () => Target): void {
  app.get('/openapi.yaml', (c) =>
    c.body(contractText, 200, { 'Content-Type': 'application/yaml; charset=utf-8' }),
  );
  app.get('/openapi.json', (c) => c.json(contractDoc()));
  app.get('/_mock/target', (c) =>
    c.json({
      code: 200,
      message: 'The objects hrmock check may use on this mock.',
      data: target(),
    }),
  );
}
