import {
  commaParts,
  type GeoPoint,
  type ItemFilter,
  isItemGroup,
  KEY_PATTERN,
  mayBeJsonText,
  maybeJson,
  OBJECT_AS_TEXT,
  shown,
  toGeoPoint,
  toItemFilter,
  trimmed,
} from './param-values.ts';
import { EXAMPLE_KEY, ScalarReader } from './scalar-reader.ts';

export { type GeoPoint, type ItemFilter, KEY_PATTERN, shown } from './param-values.ts';
export type { RawParams } from './scalar-reader.ts';

/**
 * Reads typed parameters out of raw ones: the scalars of `ScalarReader`, and the lists, tags,
 * points and id batches the operations take, in every spelling the SDKs and HTTP clients send.
 */
export class ParamReader extends ScalarReader {
  /**
   * Python's `requests` sends a dict, or each dict of a list, as its keys (`skills=name&
   * skills=value`): read as names, that would filter on nonsense without a word, so say it.
   */
  private dictKeys(name: string, fields: readonly string[]): boolean {
    const raw = this.raw.get(name);
    const keysOnly =
      Array.isArray(raw) &&
      raw.length > 1 &&
      raw.every((v) => typeof v === 'string' && fields.includes(v));
    if (keysOnly) {
      this.error(
        name,
        `${name} came as the field names ${raw.join(', ')} alone, which is how Python's requests sends a dict: send json.dumps(${name}) instead`,
      );
    }
    return keysOnly;
  }

  /** A list: a JSON array (or JSON-encoded one), or one value per repeated query key. */
  private list(name: string): unknown[] | undefined {
    const raw = this.raw.get(name);
    if (Array.isArray(raw)) {
      // Strings none of which can be JSON (`["python"]`, the usual list): read as they are.
      if (raw.every((v) => typeof v === 'string' && !mayBeJsonText(v))) return raw;
      // Repeated query keys: each value may itself be JSON (an item, or a list to splice in).
      if (raw.every((v) => typeof v === 'string')) {
        return raw.flatMap((v) => {
          const decoded = maybeJson(v);
          return Array.isArray(decoded) && raw.length > 1 && !isItemGroup(decoded)
            ? decoded
            : [decoded];
        });
      }
      return raw;
    }
    const decoded = maybeJson(raw);
    if (Array.isArray(decoded)) return decoded;
    // One object where a list of them goes (`skills[name]=python`, qs's `repeat` format, or
    // `{"name": …}` alone): a list of one.
    return typeof decoded === 'object' && decoded !== null ? [decoded] : undefined;
  }

  keywords(name: string): string[] | undefined {
    if (!this.has(name)) return undefined;
    const raw = this.raw.get(name);
    // A plain string, not JSON: `python` or `python,spark` (how URLSearchParams sends a list).
    const plain =
      typeof raw === 'string' && !/^\s*[[{"]/.test(raw) && !raw.includes(OBJECT_AS_TEXT)
        ? commaParts(raw)
        : undefined;
    const list = plain !== undefined && plain.length > 0 ? plain : this.list(name);
    if (list === undefined || list.some((v) => typeof v !== 'string' || v.trim() === '')) {
      this.error(
        name,
        `${name} must be a JSON array of non-empty strings, e.g. ${name}=["python","spark"], got ${shown(this.raw.get(name))}`,
      );
      return undefined;
    }
    return (list as string[]).map((k) => k.trim());
  }

  itemFilters(name: string): ItemFilter[] | undefined {
    if (!this.has(name)) return undefined;
    if (this.dictKeys(name, ['name', 'value'])) return undefined;
    const items = this.list(name)?.map(toItemFilter);
    if (items === undefined || items.some((i) => i === null)) {
      this.error(
        name,
        `${name} must be a JSON array of {"name", "value"} objects, e.g. ${name}=[{"name":"python","value":null}], got ${shown(this.raw.get(name))}`,
      );
      return undefined;
    }
    return items as ItemFilter[];
  }

  /**
   * Tag filters as groups: a flat list `[A, B]` needs every tag (groups [A], [B]); a list of
   * lists `[[A, B], [C]]` needs one tag of each group.
   */
  tagGroups(name: string): ItemFilter[][] | undefined {
    if (!this.has(name)) return undefined;
    if (this.dictKeys(name, ['name', 'value'])) return undefined;
    const list = this.list(name);
    if (list?.some((entry) => Array.isArray(entry) && entry.length === 0)) {
      this.error(
        name,
        `${name} holds an empty group []: each inner list is a group of tags and needs at least one. Drop the empty group or put tags in it, e.g. ${name}=[[{"name":"remote","value":"yes"}]], or leave ${name} out to filter on no tag`,
      );
      return undefined;
    }
    const groups = list?.map((entry) => {
      const members = Array.isArray(entry) ? entry.map(toItemFilter) : [toItemFilter(entry)];
      return members.length > 0 && members.every((m) => m !== null)
        ? (members as ItemFilter[])
        : null;
    });
    if (groups === undefined || groups.some((g) => g === null)) {
      this.error(
        name,
        `${name} must be a JSON array of {"name", "value"} tags, or of lists of them, e.g. ${name}=[{"name":"remote","value":"yes"}], got ${shown(this.raw.get(name))}`,
      );
      return undefined;
    }
    return groups as ItemFilter[][];
  }

  geoPoint(name: string): GeoPoint | undefined {
    if (!this.has(name)) return undefined;
    if (this.dictKeys(name, ['lat', 'lng', 'lon'])) return undefined;
    const raw = this.scalar(name);
    const point = toGeoPoint(raw);
    if (point === null) {
      this.error(
        name,
        `${name} must be a JSON object {"lat": -90..90, "lng": -180..180} ("lon" is read as "lng"), e.g. ${name}={"lat":45.764,"lng":4.8357}, got ${shown(raw)}`,
      );
      return undefined;
    }
    return point;
  }

  /**
   * A batch of `{containerField, keyField}` objects, e.g. profile_ids, as [container, key]
   * pairs.
   */
  idList(name: string, fields: [string, string], max: number): [string, string][] | undefined {
    if (!this.has(name)) return undefined;
    if (this.dictKeys(name, fields)) return undefined;
    const list = this.list(name);
    if (list === undefined || list.length === 0) {
      const example = `${name}=[{"${fields[0]}":"${EXAMPLE_KEY}","${fields[1]}":"…"}]`;
      this.error(
        name,
        `${name} must be a non-empty JSON array of {"${fields[0]}", "${fields[1]}"} objects, e.g. ${example}, got ${shown(this.raw.get(name))}`,
      );
      return undefined;
    }
    if (list.length > max) {
      this.error(
        name,
        `${name} holds ${list.length} items; at most ${max} can be graded in one request, so split the batch`,
      );
      return undefined;
    }
    const ids: [string, string][] = [];
    // The first field is mostly the same key all along (a batch from one source or board).
    let checked: string | undefined;
    for (const [index, entry] of list.entries()) {
      const item = maybeJson(entry) as Record<string, unknown> | null;
      const a = trimmedField(item, fields[0]);
      const b = trimmedField(item, fields[1]);
      if (
        typeof a !== 'string' ||
        typeof b !== 'string' ||
        (a !== checked && !KEY_PATTERN.test(a)) ||
        !KEY_PATTERN.test(b)
      ) {
        this.error(
          name,
          `${name}[${index}] must be {"${fields[0]}": key, "${fields[1]}": key} with 40-hex keys, got ${shown(entry)}`,
        );
        return undefined;
      }
      checked = a;
      ids.push([a, b]);
    }
    return ids;
  }
}

/** A field of an object sent, without white space at the ends of a string. */
function trimmedField(item: unknown, field: string): unknown {
  if (typeof item !== 'object' || item === null) return undefined;
  const value = (item as Record<string, unknown>)[field];
  return typeof value === 'string' ? trimmed(value) : value;
}
