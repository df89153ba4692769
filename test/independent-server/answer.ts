import type { Problem } from './decode.ts';

/** What an operation answers: a status and a JSON body (the envelope). */
export type Answer = { status: number; body: Record<string, unknown> };

export const ok = (message: string, data: unknown, meta?: unknown): Answer => ({
  status: 200,
  body: meta === undefined ? { code: 200, message, data } : { code: 200, message, data, meta },
});

export const refused = (status: number, message: string, errors?: Problem[]): Answer => ({
  status,
  body: errors === undefined ? { code: status, message } : { code: status, message, errors },
});

export const invalid = (errors: Problem[]): Answer =>
  refused(
    400,
    errors.length === 1 ? `Invalid parameter: ${errors[0]?.message}` : 'Invalid parameters.',
    errors,
  );

/** A key that names nothing: "Unable to find object: source" and the parameter that held it. */
export const unknown = (object: string, param: string, value: string): Answer =>
  refused(400, `Unable to find object: ${object}`, [
    { param, message: `no ${object} has ${param} ${JSON.stringify(value)}` },
  ]);

export const internal = (): Answer => refused(500, 'internal error');

export const missing = (param: string, hint = ''): Problem => ({
  param,
  message: `${param} is required${hint}`,
});
