/**
 * A template tag that returns one flat string. A plain template literal builds a rope of
 * concatenations that lives as long as the string; across 100,000 profiles those ropes cost
 * tens of megabytes and garbage-collector time.
 */
export function flat(strings: TemplateStringsArray, ...values: unknown[]): string {
  const parts: unknown[] = [strings[0]];
  for (let i = 0; i < values.length; i++) parts.push(values[i], strings[i + 1]);
  return parts.join('');
}
