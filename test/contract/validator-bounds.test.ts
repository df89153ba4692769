import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/suite/openapi.ts';
import { ContractValidator } from '../../contract/suite/validator.ts';

const validator = new ContractValidator(loadContract());
const META = { page: 1, maxPage: 1, count: 1, total: 1 };

function searching(profiles: unknown[], more: Record<string, unknown> = {}) {
  const body = { code: 200, message: 'OK', meta: META, data: { profiles, ...more } };
  return validator.validateResponse('/profiles/searching', 'get', 200, body);
}

describe('ContractValidator on wide answers', () => {
  it('gives every error of an invalid answer of at most 2,000 values (ALL_ERRORS_VALUES)', () => {
    const verdict = searching(Array.from({ length: 100 }, () => ({})));
    expect(verdict.ok ? [] : verdict.errors).toHaveLength(1500);
  });

  it('gives the first error alone of an invalid answer of 3,000 empty profiles, not 45,000', () => {
    const verdict = searching(Array.from({ length: 3_000 }, () => ({})));
    expect(verdict.ok ? [] : verdict.errors).toEqual([
      "/data/profiles/0 must have required property 'key'",
    ]);
  });

  it('judges two million numbers by the first one', () => {
    const verdict = searching(new Array(2 * 1024 * 1024).fill(1));
    expect(verdict.ok ? [] : verdict.errors).toEqual(['/data/profiles/0 must be object']);
  });

  it('takes an answer with 250,000 more keys, as the contract allows', () => {
    const keys = Object.fromEntries(Array.from({ length: 250_000 }, (_, i) => [`k${i}`, 1]));
    expect(searching([], keys)).toEqual({ ok: true });
  });
});
