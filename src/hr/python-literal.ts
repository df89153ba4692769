/**
 * Reads a Python literal of lists, tuples, dicts, strings, numbers, `True`, `False` and `None`:
 * what a Python client sends when it passes `str(value)` (or lets `httpx` do it) instead of
 * `json.dumps(value)`, e.g. `['a', 'b']` or `{'lat': 45.7, 'lng': 4.8}`. Anything else, or
 * anything left over, gives `undefined`. No evaluation: a small parser over the characters.
 */
export function fromPythonLiteral(text: string): unknown {
  const parser = new Parser(text);
  try {
    const value = parser.value();
    return parser.atEnd() ? value : undefined;
  } catch (error) {
    if (error instanceof NotALiteral) return undefined;
    throw error;
  }
}

class NotALiteral extends Error {}

/** Deeper than this is not something a client meant to send. */
const MAX_DEPTH = 64;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/;
const WORDS: Record<string, unknown> = { True: true, False: false, None: null };
const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '0': '\0',
};

class Parser {
  readonly #text: string;
  #at = 0;
  #depth = 0;

  constructor(text: string) {
    this.#text = text;
  }

  atEnd(): boolean {
    this.#skipSpace();
    return this.#at === this.#text.length;
  }

  value(): unknown {
    this.#skipSpace();
    const char = this.#text[this.#at];
    if (char === '[' || char === '(') return this.#sequence(char === '[' ? ']' : ')');
    if (char === '{') return this.#dict();
    if (char === "'" || char === '"') return this.#string(char);
    for (const [word, value] of Object.entries(WORDS)) {
      if (this.#text.startsWith(word, this.#at)) {
        this.#at += word.length;
        return value;
      }
    }
    const number = NUMBER.exec(this.#text.slice(this.#at));
    if (number === null) throw new NotALiteral();
    this.#at += number[0].length;
    return Number(number[0]);
  }

  #sequence(close: string): unknown[] {
    this.#enter();
    const items: unknown[] = [];
    this.#at++;
    while (!this.#take(close)) {
      items.push(this.value());
      if (!this.#take(',')) {
        this.#expect(close);
        break;
      }
    }
    this.#depth--;
    return items;
  }

  #dict(): Record<string, unknown> {
    this.#enter();
    // A null prototype: a `__proto__` key is data.
    const dict: Record<string, unknown> = Object.create(null);
    this.#at++;
    while (!this.#take('}')) {
      const key = this.value();
      if (typeof key !== 'string' && typeof key !== 'number') throw new NotALiteral();
      this.#expect(':');
      dict[String(key)] = this.value();
      if (!this.#take(',')) {
        this.#expect('}');
        break;
      }
    }
    this.#depth--;
    return dict;
  }

  #string(quote: string): string {
    let out = '';
    for (let at = this.#at + 1; at < this.#text.length; at++) {
      const char = this.#text[at] as string;
      if (char === quote) {
        this.#at = at + 1;
        return out;
      }
      if (char === '\\') {
        const next = this.#text[++at] ?? '';
        out += ESCAPES[next] ?? `\\${next}`;
      } else {
        out += char;
      }
    }
    throw new NotALiteral();
  }

  #enter(): void {
    if (++this.#depth > MAX_DEPTH) throw new NotALiteral();
  }

  #take(char: string): boolean {
    this.#skipSpace();
    if (this.#text[this.#at] !== char) return false;
    this.#at++;
    return true;
  }

  #expect(char: string): void {
    if (!this.#take(char)) throw new NotALiteral();
  }

  #skipSpace(): void {
    while (/\s/.test(this.#text[this.#at] ?? '')) this.#at++;
  }
}
