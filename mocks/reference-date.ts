/** "Now" for every fixture: dates are computed from it so no output depends on the clock. */
export const REFERENCE_DATE = '2026-01-01T00:00:00.000Z';

export const REFERENCE_MS = Date.parse(REFERENCE_DATE);

/** Months counted since year 0 (`year * 12 + month`), the unit careers are planned in. */
export const REFERENCE_MONTH = monthOf(REFERENCE_MS);

export function monthOf(ms: number): number {
  const date = new Date(ms);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

const startCache = new Map<number, string>();
const endCache = new Map<number, string>();

/** Midnight on the first day of a month; a career spans a few hundred months, so cache them. */
export function monthStart(month: number): string {
  let iso = startCache.get(month);
  if (iso === undefined) {
    iso = new Date(Date.UTC(Math.floor(month / 12), month % 12, 1)).toISOString();
    startCache.set(month, iso);
  }
  return iso;
}

/** Midnight on the last day of a month. */
export function monthEnd(month: number): string {
  let iso = endCache.get(month);
  if (iso === undefined) {
    iso = new Date(Date.UTC(Math.floor(month / 12), (month % 12) + 1, 0)).toISOString();
    endCache.set(month, iso);
  }
  return iso;
}
