import { customerSupport } from './families/customer-support.ts';
import { data } from './families/data.ts';
import { design } from './families/design.ts';
import { finance } from './families/finance.ts';
import { hr } from './families/hr.ts';
import { logistics } from './families/logistics.ts';
import { marketing } from './families/marketing.ts';
import { nursing } from './families/nursing.ts';
import { sales } from './families/sales.ts';
import { software } from './families/software.ts';
import type { FamilyVocabulary } from './family-vocabulary.ts';

/** Fixed order: generation draws families by position, so reordering changes every fixture. */
export const FAMILIES = [
  software,
  data,
  sales,
  nursing,
  finance,
  marketing,
  hr,
  logistics,
  design,
  customerSupport,
] as const satisfies readonly FamilyVocabulary[];

export type FamilyId = (typeof FAMILIES)[number]['id'];

export const FAMILY_IDS: readonly FamilyId[] = FAMILIES.map((family) => family.id);

const byId = new Map<string, FamilyVocabulary>(FAMILIES.map((family) => [family.id, family]));

export function familyById(id: string): FamilyVocabulary | undefined {
  return byId.get(id);
}
