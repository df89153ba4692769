import type { ContractValidator } from '../../contract/suite/validator.ts';
import type { AnswerCheck } from '../http/admin/scenario-body.ts';

/**
 * The contract's judge of the bodies scenarios make, for `X-Hrmock-Warning`: the suite's
 * validator (Ajv), imported and compiled on the first body checked, so that `import 'hrmock'`
 * and a mock without such scenarios never load it.
 */
export function contractAnswerCheck(): AnswerCheck {
  let validating: Promise<ContractValidator> | undefined;
  return async ({ method, path, status, body }) => {
    validating ??= Promise.all([
      import('../../contract/suite/openapi.ts'),
      import('../../contract/suite/validator.ts'),
    ]).then(([openapi, validator]) => validator.validatorOf(openapi.sharedContract()));
    const verdict = (await validating).validateResponse(path, method.toLowerCase(), status, body);
    if (verdict.ok) return undefined;
    const operation = `${method.toUpperCase()} ${path}`;
    const first = verdict.errors[0] ?? 'is invalid';
    if (first.startsWith(`${operation} does not document`))
      return `the contract documents no ${status} answer for ${operation}`;
    return `the scenario's body does not fit the contract (${operation} ${status}): ${first}`;
  };
}
