import { startMock } from 'hrmock';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    hrmockUrl: string;
    hrmockSourceKeys: string[];
  }
}

/** Starts the mock on a free port before the tests and stops it after them. */
export default async function setup(project: TestProject) {
  const mock = await startMock({ seed: 42, profiles: 300, jobs: 60 });
  project.provide('hrmockUrl', mock.url);
  project.provide('hrmockSourceKeys', mock.target.profiles.source_keys);
  return () => mock.close();
}
