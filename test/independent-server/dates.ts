const DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?([Zz]|[-+ ]\d{2}:?\d{2})?)?$/;

/** Milliseconds of an ISO 8601 date or date-time, `undefined` when it is not one. */
export const instantOf = (text: string): number | undefined => {
  const m = DATE.exec(text.trim());
  if (m === null) return undefined;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1, 7).map((part) => part ?? '0');
  const parts = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5]);
  const back = new Date(ms);
  const same =
    back.getUTCFullYear() === parts[0] &&
    back.getUTCMonth() === parts[1] - 1 &&
    back.getUTCDate() === parts[2] &&
    back.getUTCHours() === parts[3] &&
    back.getUTCMinutes() === parts[4];
  if (!same || parts[5] > 59) return undefined;
  const fraction = m[7] === undefined ? 0 : Math.round(Number(m[7]) * 1000);
  const zone = m[8];
  if (zone === undefined || zone === 'Z' || zone === 'z') return ms + fraction;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
  return ms + fraction - sign * offset * 60_000;
};
