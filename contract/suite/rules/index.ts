import type { Rule } from '../rule.ts';
import { ADDITIVE } from './additive.ts';
import { BAD_INPUT } from './bad-input.ts';
import { CROSS_PARAM } from './cross-parameter.ts';
import { DEFAULTS } from './defaults.ts';
import { ENV } from './env.ts';
import { FILTERS } from './filters.ts';
import { GRD_ALIGN, GRD_DEFAULT, GRD_FULL } from './grading.ts';
import { GET_KEPT, POST_EQ, POST_LONG } from './methods.ts';
import { ODD_TEXT } from './odd-text.ts';
import { OLD_CLIENT } from './old-client.ts';
import { ORDER } from './order.ts';
import { PAGE } from './paging.ts';
import { PRED } from './predictions.ts';
import { REFUSALS } from './refusals.ts';
import { ROUTES } from './routes.ts';
import { STABLE } from './stable.ts';

/**
 * Every rule `hrmock check` runs, in DESIGN.md's order: a new rule is a file of this folder and a
 * line here. ENV is listed first and run last: it also checks every answer the others got.
 */
export const RULES: Rule[] = [
  ENV,
  GRD_DEFAULT,
  GRD_FULL,
  GRD_ALIGN,
  OLD_CLIENT,
  POST_EQ,
  GET_KEPT,
  POST_LONG,
  PAGE,
  ORDER,
  PRED,
  STABLE,
  BAD_INPUT,
  DEFAULTS,
  ROUTES,
  REFUSALS,
  CROSS_PARAM,
  FILTERS,
  ODD_TEXT,
  ADDITIVE,
];
