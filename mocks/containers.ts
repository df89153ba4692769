import type { Container } from './contract-types.ts';
import { keyOf } from './keys.ts';

const SOURCES = [
  { name: 'Careers site applicants', subtype: 'careers' },
  { name: 'Talent pool', subtype: 'ats' },
  { name: 'Sourcing', subtype: 'sourcing' },
] as const;

const BOARDS = [
  { name: 'Careers site', subtype: 'careers' },
  { name: 'Internal mobility', subtype: 'internal' },
] as const;

/** The three sources profiles are kept in; keys come from the seed alone. */
export function sourcesFor(seed: number): Container[] {
  return SOURCES.map(({ name, subtype }, index) => ({
    key: keyOf(seed, 'source', index),
    name,
    type: 'api',
    subtype,
    environment: 'production',
  }));
}

/** The two boards jobs are kept in. */
export function boardsFor(seed: number): Container[] {
  return BOARDS.map(({ name, subtype }, index) => ({
    key: keyOf(seed, 'board', index),
    name,
    type: 'api',
    subtype,
    environment: 'production',
  }));
}

/** Object `index` lives in container `index % n`, so every container fills evenly. */
export function containerFor(containers: readonly Container[], index: number): Container {
  const container = containers[index % containers.length];
  if (container === undefined) throw new RangeError('at least one source or board is needed');
  return container;
}
