import { afterEach, describe, expect, it } from 'vitest';
import { decimalNumber, isoTime, trimmed } from '../../src/hr/param-values.ts';

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('isoTime', () => {
  // Node applies a TZ set at run time: a server far from UTC, where Date.parse of a date-time
  // without an offset would give local time.
  it.each(['America/New_York', 'Asia/Kolkata'])(
    'reads a date-time without an offset as UTC on a server in %s',
    (tz) => {
      process.env.TZ = tz;
      expect(new Date(2024, 4, 1, 10).getTimezoneOffset()).not.toBe(0);
      expect(isoTime('2024-05-01T10:00:00')).toBe(Date.UTC(2024, 4, 1, 10));
      expect(isoTime('2024-05-01 10:00')).toBe(Date.UTC(2024, 4, 1, 10));
      expect(isoTime('2024-05-01t10:00:00.250')).toBe(Date.UTC(2024, 4, 1, 10, 0, 0, 250));
      expect(isoTime('2024-05-01')).toBe(Date.UTC(2024, 4, 1));
    },
  );

  it('keeps an offset sent, with or without its colon, or its + sent unencoded', () => {
    const noon = Date.UTC(2024, 4, 1, 12);
    expect(isoTime('2024-05-01T14:00:00+02:00')).toBe(noon);
    expect(isoTime('2024-05-01T14:00:00+0200')).toBe(noon);
    expect(isoTime('2024-05-01T14:00:00 0200')).toBe(noon);
    expect(isoTime('2024-05-01T07:00:00-05:00')).toBe(noon);
    expect(isoTime(' 2024-05-01T12:00:00z ')).toBe(noon);
  });

  it('refuses what is not ISO 8601', () => {
    expect(isoTime('1732712345')).toBeNaN();
    expect(isoTime('May 1, 2024')).toBeNaN();
  });
});

describe('decimalNumber', () => {
  it.each([
    ['2.5', 2.5],
    [' 10 ', 10],
    ['-3', -3],
    ['1e-05', 0.00001],
    ['1E+21', 1e21],
    ['.5', 0.5],
  ])('reads %j as %d', (text, value) => {
    expect(decimalNumber(text)).toBe(value);
  });

  it.each(['0x10', '0b1', '0o7', '+5', '1_000', 'Infinity', '-Infinity', '', ' ', '1.2.3'])(
    'refuses %j, which Number() may read',
    (text) => {
      expect(decimalNumber(text)).toBeNaN();
    },
  );
});

describe('trimmed', () => {
  it('returns a value with visible ends as the same string', () => {
    const text = 'created_at';
    expect(trimmed(text)).toBe(text);
  });

  it.each([' a', 'a ', '\ta\n', '\u00a0a\u3000'])('trims %j', (text) => {
    expect(trimmed(text)).toBe('a');
  });
});
