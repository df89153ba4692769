// Imported by the package's name, as a consumer would. These are type assertions, checked by
// `tsc --noEmit` (npm run typecheck) and by test/types.test.ts, which fails when one breaks.
import type {
  Job,
  JobMinimal,
  Profile,
  ProfileMinimal,
  ProfilesScoringResponse,
  StartMockOptions,
} from 'hrmock';
import type { ProxyReport, RunningProxy, StartProxyOptions } from 'hrmock/proxy';
import { describe, expectTypeOf, it } from 'vitest';
import type { Target as SuiteTarget } from '../contract/suite/target.ts';
import type { Target as MockTarget } from '../src/hr/target.ts';

describe("the types consumers import from 'hrmock'", () => {
  it('gives a Profile every minimal field, with the same types', () => {
    expectTypeOf<Profile>().toHaveProperty('key').toEqualTypeOf<string>();
    expectTypeOf<Pick<Profile, keyof ProfileMinimal>>().toEqualTypeOf<ProfileMinimal>();
    expectTypeOf<Pick<Job, keyof JobMinimal>>().toEqualTypeOf<JobMinimal>();
  });

  it('types skills as {name, type: hard | soft, value}', () => {
    expectTypeOf<Profile['skills'][number]['type']>().toEqualTypeOf<'hard' | 'soft'>();
  });

  it('types predictions as pairs of numbers', () => {
    expectTypeOf<ProfilesScoringResponse>().toMatchTypeOf<{ data: { predictions: number[][] } }>();
  });
});

describe('the proxy and replay in the package API', () => {
  it('types startProxy: an upstream and a folder to record in, a report on close', () => {
    expectTypeOf<StartProxyOptions>().toMatchTypeOf<{ upstream: string; record?: string }>();
    expectTypeOf<RunningProxy['close']>().returns.resolves.toEqualTypeOf<ProxyReport>();
    expectTypeOf<ProxyReport['violations'][number]>().toMatchTypeOf<{
      rule: string;
      method: string;
      path: string;
      status: number;
      message: string;
    }>();
  });

  it('types startMock({ replay }) as the folder a proxy recorded', () => {
    expectTypeOf<StartMockOptions['replay']>().toEqualTypeOf<string | undefined>();
  });
});

describe('the target the mock serves and the one the suite reads', () => {
  it('are the same shape, headers aside, though neither imports the other', () => {
    expectTypeOf<MockTarget>().toEqualTypeOf<Omit<SuiteTarget, 'headers' | 'headerTemplates'>>();
  });
});
