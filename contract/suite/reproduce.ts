/** A request as it went on the wire: enough to send it again. */
export type SentRequest = {
  method: string;
  url: string;
  /** Every header the suite set, by name; run headers (secrets) are never printed from here. */
  headers: Record<string, string>;
  body?: string;
};

/**
 * How a report writes each run header: a shell word that refers to the environment, never the
 * value. `{'X-API-KEY': '"$HRFLOW_API_KEY"'}`.
 */
export type ShownHeaders = Record<string, string>;

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The environment variable a header given as a plain value is shown as: `X-User-Email` → `$X_USER_EMAIL`. */
export function placeholderName(header: string): string {
  const name = header.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
  return /^[0-9]/.test(name) ? `H_${name}` : name;
}

/**
 * The shell word a header value is shown as in a reproducer. A template naming `${VAR}` keeps
 * its references (`"Bearer $TOKEN"`); a plain value is never printed and becomes a reference
 * named after the header (`"$X_USER_EMAIL"`), for the reader to set.
 */
export function shownHeaderValue(name: string, template: string | undefined): string {
  if (template === undefined || !new RegExp(REFERENCE.source).test(template))
    return `"$${placeholderName(name)}"`;
  let out = '';
  let at = 0;
  for (const match of template.matchAll(REFERENCE)) {
    out += doubleQuoted(template.slice(at, match.index));
    const next = template[(match.index ?? 0) + match[0].length] ?? '';
    out += /[A-Za-z0-9_]/.test(next) ? `\${${match[1]}}` : `$${match[1]}`;
    at = (match.index ?? 0) + match[0].length;
  }
  return `"${out}${doubleQuoted(template.slice(at))}"`;
}

function doubleQuoted(text: string): string {
  return text.replace(/[\\"$`]/g, (c) => `\\${c}`);
}

// C0 and C1 controls, DEL and the line separators: kept out of a printed command line.
function unprintable(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
}

/** One shell word holding `text` exactly (bash's `$'…'` when it holds control characters). */
export function shellWord(text: string): string {
  if (![...text].some((c) => unprintable(c.codePointAt(0) ?? 0)))
    return `'${text.replace(/'/g, `'\\''`)}'`;
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === "'" || char === '\\') out += `\\${char}`;
    // As UTF-8 bytes: `\xHH` means the same byte in every locale, `\uHHHH` does not.
    else if (unprintable(code))
      out += [...Buffer.from(char, 'utf8')]
        .map((b) => `\\x${b.toString(16).padStart(2, '0')}`)
        .join('');
    else out += char;
  }
  return `$'${out}'`;
}

/**
 * A complete `curl` command (bash) that sends `sent` again: method, URL, headers, body. Run
 * headers appear as `shown` says (environment references); headers the suite itself set
 * (`Content-Type`) appear as they were.
 */
export function curlCommand(sent: SentRequest, shown: ShownHeaders): string {
  const parts = ['curl', '-sS', '-i', '-g', '-X', sent.method, shellWord(sent.url)];
  const byLower = new Map(Object.entries(shown).map(([k, v]) => [k.toLowerCase(), v]));
  for (const [name, value] of Object.entries(sent.headers)) {
    const word = byLower.get(name.toLowerCase());
    parts.push('-H', word === undefined ? shellWord(`${name}: ${value}`) : joinHeader(name, word));
  }
  if (sent.body !== undefined) parts.push('--data-binary', shellWord(sent.body));
  return parts.join(' ');
}

/** `"Name: $VAR"` from a name and a double-quoted word. */
function joinHeader(name: string, word: string): string {
  return `"${name}: ${word.slice(1, -1)}"`;
}

/**
 * A command line `curlCommand` made, split into its shell words as written (quotes kept): bare
 * words, `'…'` (with `'\''` inside), `$'…'` and `"…"`, and words joining several of them.
 */
export function commandWords(line: string): string[] {
  const words: string[] = [];
  let start = -1;
  let quote: "'" | '$' | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote === undefined && char === ' ') {
      if (start >= 0) words.push(line.slice(start, i));
      start = -1;
      continue;
    }
    if (start < 0) start = i;
    if (quote === undefined) {
      if (char === '\\') i++;
      else if (char === "'") quote = "'";
      else if (char === '"') quote = '"';
      else if (char === '$' && line[i + 1] === "'") {
        i++;
        quote = '$';
      }
    } else if (char === '\\' && quote !== "'") i++;
    else if (char === (quote === '$' ? "'" : quote)) quote = undefined;
  }
  if (start >= 0) words.push(line.slice(start));
  return words;
}

/** The text one shell word made by `shellWord` stands for (its inverse). */
export function wordText(word: string): string {
  const parts: Buffer[] = [];
  const text = (s: string) => parts.push(Buffer.from(s, 'utf8'));
  let i = 0;
  while (i < word.length) {
    if (word.startsWith("$'", i)) {
      i += 2;
      while (i < word.length && word[i] !== "'") {
        const plain = /[^\\']+/y;
        plain.lastIndex = i;
        const run = plain.exec(word);
        if (run !== null) {
          text(run[0]);
          i += run[0].length;
        } else if (word[i + 1] === 'x') {
          parts.push(Buffer.from([Number.parseInt(word.slice(i + 2, i + 4), 16)]));
          i += 4;
        } else {
          text(word[i + 1] ?? '');
          i += 2;
        }
      }
      i++;
    } else if (word[i] === "'") {
      const end = word.indexOf("'", i + 1);
      text(word.slice(i + 1, end < 0 ? undefined : end));
      i = end < 0 ? word.length : end + 1;
    } else if (word[i] === '\\') {
      text(word[i + 1] ?? '');
      i += 2;
    } else {
      const run = /[^'\\$]+|\$/y;
      run.lastIndex = i;
      const found = run.exec(word)?.[0] ?? (word[i] as string);
      text(found);
      i += found.length;
    }
  }
  return Buffer.concat(parts).toString('utf8');
}
