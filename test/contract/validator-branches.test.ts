import { describe, expect, it } from 'vitest';
import { at, toList } from '../../contract/suite/json-shape.ts';
import { isObject, loadContract, type OpenApiDoc } from '../../contract/suite/openapi.ts';
import { ContractValidator } from '../../contract/suite/validator.ts';
import { objAt } from '../support/json-reads.ts';

const contract = loadContract();
const validator = new ContractValidator(contract);
const KEY = '12feac8fdc9c3b5f6c463c8f3a705d17d2581331';
const MINIMAL = {
  key: KEY,
  reference: null,
  source_key: KEY,
  created_at: '2024-01-02T03:04:05Z',
  updated_at: '2024-01-02T03:04:05Z',
};

/** A full profile the contract's own examples show. */
function fullProfile(): Record<string, unknown> {
  for (const example of Object.values(contract.components?.examples ?? {})) {
    for (const item of toList(at(example, 'value', 'data', 'profiles')))
      if (isObject(item) && validator.validateSchema('Profile', item).ok)
        return structuredClone(item);
  }
  throw new Error('the contract shows no full profile');
}

function grading(profile: unknown) {
  return { code: 200, message: 'OK', data: { profiles: [profile], scores: [], errors: [] } };
}

function gradingErrors(profile: unknown): string[] {
  const verdict = validator.validateResponse('/profiles/grading', 'get', 200, grading(profile));
  expect(verdict.ok).toBe(false);
  return verdict.ok ? [] : verdict.errors;
}

/** Fields of Profile that ProfileMinimal does not have: a wrong fix for a minimal item. */
const FULL_ONLY = /source'|'info'|text_language|experiences|educations|skills|metadatas/;

describe('ContractValidator on a failed anyOf', () => {
  it('reports only what the minimal branch lacks when a minimal profile lacks updated_at', () => {
    const { updated_at: _, ...lacking } = MINIMAL;
    const errors = gradingErrors(lacking);
    expect(errors).toEqual(["/data/profiles/0 must have required property 'updated_at'"]);
    expect(errors.join('\n')).not.toMatch(FULL_ONLY);
    expect(errors.join('\n')).not.toMatch(/anyOf|must be null/);
  });

  it('reports each fault of the closest branch, first the one to fix', () => {
    const { updated_at: _, ...lacking } = MINIMAL;
    const errors = gradingErrors({ ...lacking, key: 'not-a-key' });
    expect(errors).toEqual([
      "/data/profiles/0 must have required property 'updated_at'",
      '/data/profiles/0/key must match pattern "^[0-9a-f]{40}$"',
    ]);
  });

  it('reports the one wrong field of a full profile, not what a minimal one would refuse', () => {
    const errors = gradingErrors({ ...fullProfile(), text: 42 });
    expect(errors).toEqual(['/data/profiles/0/text must be string']);
  });

  it('reports a field a full profile lacks as the full branch says', () => {
    const { info: _, ...lacking } = fullProfile();
    expect(gradingErrors(lacking)).toEqual(["/data/profiles/0 must have required property 'info'"]);
  });

  it('reports the branch of the right type: a string for an object item is refused as such', () => {
    const errors = gradingErrors('profile');
    expect(errors[0]).toMatch(/^\/data\/profiles\/0 must be (object|null)$/);
  });

  it('keeps the errors outside the union as they were', () => {
    const { updated_at: _, ...lacking } = MINIMAL;
    const body = { ...grading(lacking), code: 'OK' };
    const verdict = validator.validateSchema('ProfilesGradingResponse', body);
    expect(verdict).toEqual({
      ok: false,
      errors: expect.arrayContaining([
        '/code must be integer',
        "/data/profiles/0 must have required property 'updated_at'",
      ]),
    });
    expect(verdict.ok ? '' : verdict.errors.join('\n')).not.toMatch(FULL_ONLY);
  });

  it('reports the deepest error of a filter item rather than the JSON-text or null branches', () => {
    const verdict = validator.validateSchema('ProfilesSearchingBody', {
      source_keys: [KEY],
      skills: [{ name: 5 }],
    });
    expect(verdict.ok ? [] : verdict.errors).toEqual(['/skills/0/name must be string']);
  });
});

/**
 * A small OpenAPI 3.1 document: a pet is a cat or a dog, told apart by `pet_type`, through a
 * discriminator or (`tagged`) a `const` in each branch.
 */
function petDoc(
  discriminator: Record<string, unknown> | undefined,
  tagged = discriminator === undefined,
): OpenApiDoc {
  const pet = (type: string, required: string[], extra: Record<string, unknown>) => ({
    type: 'object',
    required: ['pet_type', ...required],
    properties: {
      pet_type: tagged ? { type: 'string', const: type } : { type: 'string' },
      ...extra,
    },
  });
  return {
    openapi: '3.1.0',
    info: { title: 'pets', version: '1' },
    paths: {},
    components: {
      schemas: {
        Pet: {
          oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
          ...(discriminator === undefined ? {} : { discriminator }),
        },
        Cat: pet('cat', ['meows'], { meows: { type: 'boolean' } }),
        Dog: pet('dog', ['barks', 'bark_volume', 'breed'], {
          barks: { type: 'boolean' },
          bark_volume: { type: 'integer' },
          breed: { type: 'string' },
          // A union inside a branch is reduced to its own closest branch too.
          weight: {
            anyOf: [
              { type: 'number', minimum: 0 },
              { type: 'string', pattern: '^[0-9]+ kg$' },
            ],
          },
        }),
        Owner: {
          type: 'object',
          properties: { pet: { $ref: '#/components/schemas/Pet' } },
        },
      },
    },
  } as unknown as OpenApiDoc;
}

// The dog lacks one field; the cat branch would have fewer errors, but the tag says dog.
const DOG = { pet_type: 'dog', barks: true, bark_volume: 3 };

describe('ContractValidator on a union with a discriminator', () => {
  it('reports the branch that discriminator.propertyName names, not the one with fewest errors', () => {
    const pets = new ContractValidator(petDoc({ propertyName: 'pet_type' }));
    // No mapping: the value is the name of the branch's schema.
    expect(pets.validateSchema('Pet', { ...DOG, pet_type: 'Dog' })).toEqual({
      ok: false,
      errors: ["(root) must have required property 'breed'"],
    });
  });

  it('follows discriminator.mapping to the branch', () => {
    const pets = new ContractValidator(
      petDoc({ propertyName: 'pet_type', mapping: { hound: '#/components/schemas/Dog' } }),
    );
    expect(pets.validateSchema('Pet', { ...DOG, pet_type: 'hound', barks: 'loud' })).toEqual({
      ok: false,
      errors: ["(root) must have required property 'breed'", '/barks must be boolean'],
    });
  });

  it('takes a const property the value matches as the tag when there is no discriminator', () => {
    const pets = new ContractValidator(petDoc(undefined));
    // Two errors either way: the cat's pet_type and meows, the dog's breed and barks.
    expect(pets.validateSchema('Owner', { pet: { ...DOG, barks: 'loud' } })).toEqual({
      ok: false,
      errors: ["/pet must have required property 'breed'", '/pet/barks must be boolean'],
    });
  });

  it('reduces a union nested in the chosen branch to its closest branch', () => {
    const pets = new ContractValidator(petDoc({ propertyName: 'pet_type' }, true));
    expect(pets.validateSchema('Pet', { ...DOG, breed: 'collie', weight: '12 pounds' })).toEqual({
      ok: false,
      errors: ['/weight must match pattern "^[0-9]+ kg$"'],
    });
  });

  it('keeps the oneOf error when more than one branch matches: the ambiguity is the fault', () => {
    const doc = petDoc(undefined);
    objAt(doc, 'components', 'schemas').Either = {
      oneOf: [{ type: 'number' }, { type: 'integer' }],
    };
    expect(new ContractValidator(doc).validateSchema('Either', 3)).toEqual({
      ok: false,
      errors: ['(root) must match exactly one schema in oneOf'],
    });
  });
});
