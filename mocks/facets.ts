import type { Job, NamedValue, Profile } from './contract-types.ts';
import { METADATA_NAMES, TAG_NAMES } from './vocabularies/tags.ts';

/** The job family an item belongs to, from its `family` tag. */
export function familyOf(item: Profile | Job): string | null {
  return valueNamed(item.tags, TAG_NAMES.family);
}

/** The seniority of an item, from its `seniority` metadata. */
export function seniorityOf(item: Profile | Job): string | null {
  return valueNamed(item.metadatas, METADATA_NAMES.seniority);
}

function valueNamed(list: readonly NamedValue[], name: string): string | null {
  return list.find((entry) => entry.name === name)?.value ?? null;
}
