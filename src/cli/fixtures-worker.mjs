// Reads one fixture file: checks it is UTF-8, parses it and checks how deep its items nest.
// Problems name the file and a line and column, never its content. Plain JavaScript with node:
// imports only, so that it runs as is from the sources and from the build, on a worker thread (a
// large file then never holds up answers) or on the main thread (at start-up, when nothing is
// served). On a worker, `{path, name, maxDepth}` reads a file and answers `{problems}`, or
// `{count, bytes, seps}`: the file's bytes and where its items are, moved without a copy for the
// main thread to parse a batch at a time (much faster than copying the parsed objects over).
import { constants, isUtf8 } from 'node:buffer';
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const MAX_PROBLEMS = 10;

if (parentPort !== null && workerData?.fixturesReader === true) {
  const port = parentPort;
  port.on('message', ({ path, name, maxDepth }) => {
    const read = readFixtureFile(path, name, maxDepth);
    if (read.problems) {
      port.postMessage({ problems: read.problems });
      return;
    }
    // A small file's bytes may share a pooled buffer: those are copied, the rest moved.
    const own = read.bytes.byteLength === read.bytes.buffer.byteLength;
    const bytes = own ? read.bytes : new Uint8Array(read.bytes);
    const { seps } = read;
    port.postMessage({ count: read.items.length, bytes, seps }, [bytes.buffer, seps.buffer]);
  });
}

/** `{items}`: the array in the file at `path` (called `name`), or `{problems}` that stop it. */
export function readFixtureFile(path, name, maxDepth) {
  try {
    return readArray(path, name, maxDepth);
  } catch (error) {
    return { problems: [`${name}: cannot read it (${error.code ?? 'unreadable'})`] };
  }
}

function readArray(path, name, maxDepth) {
  const refuse = (problem) => ({ problems: [`${name}: ${problem}`] });
  if (!statSync(path).isFile()) return refuse('not a file');
  const bytes = readFileSync(path);
  if (bytes.length > constants.MAX_STRING_LENGTH)
    return refuse(`${bytes.length} bytes, more than one JSON text can hold here; split it`);
  const at = (offset, problem) => ({
    problems: [`${name}:${lineColumns(bytes)(offset)}: ${problem}`],
  });
  if (!isUtf8(bytes)) {
    const bad = firstNonUtf8(bytes);
    return at(bad, `not UTF-8 (byte ${bad})`);
  }
  let json;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    const error = syntaxError(bytes);
    return error ? at(error.at, `not JSON: ${error.why}`) : refuse('not JSON');
  }
  if (!Array.isArray(json)) return refuse(`must be a JSON array of ${basename(name, '.json')}`);
  const { deepest, seps } = scanArray(bytes, json.length);
  // The file's own array is level 0 here: its items are level 1, as a request body is.
  if (deepest - 1 <= maxDepth) return { items: json, bytes, seps };
  const problems = [];
  const where = itemPositions(bytes, seps);
  for (let i = 0; i < json.length && problems.length < MAX_PROBLEMS; i++) {
    const path = tooDeep(json[i], maxDepth);
    if (path)
      problems.push(
        `${name}:${where(i)}: [${i}]${shortPath(path)} nests deeper than ${maxDepth} levels`,
      );
  }
  return problems.length > 0 ? { problems } : { items: json, bytes, seps };
}

/**
 * How deep `{` and `[` nest in the JSON text of an array of `count` items, counting those outside
 * strings only, and where its items are separated: its `[`, each `,` between two items, its `]`.
 */
function scanArray(bytes, count) {
  const seps = new Uint32Array(count === 0 ? 0 : count + 1);
  let depth = 0;
  let deepest = 0;
  let k = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x22) i = closingQuote(bytes, i);
    else if (b === 0x7b || b === 0x5b) {
      if (depth === 0 && k < seps.length) seps[k++] = i;
      deepest = Math.max(deepest, ++depth);
    } else if (b === 0x7d || b === 0x5d) {
      if (--depth === 0 && k < seps.length) seps[k++] = i;
    } else if (b === 0x2c && depth === 1) seps[k++] = i;
  }
  return { deepest, seps };
}

/**
 * `line:column` (from 1; the column counts characters, not bytes) of a byte offset. Counts from
 * the offset asked before when it is further on, so asking in order costs one pass in all.
 */
export function lineColumns(bytes) {
  let at = 0;
  let line = 1;
  let column = 1;
  return (offset) => {
    if (offset < at) [at, line, column] = [0, 1, 1];
    for (; at < offset; at++) {
      const b = bytes[at];
      if (b === 0x0a) {
        line++;
        column = 1;
      } else if ((b & 0xc0) !== 0x80) column++;
    }
    return `${line}:${column}`;
  };
}

/** `line:column` where item `i` begins, given the separators `scanArray` found. */
export function itemPositions(bytes, seps) {
  const position = lineColumns(bytes);
  return (i) => {
    let at = seps[i] + 1;
    while (SPACE.has(bytes[at])) at++;
    return position(at);
  };
}

/** The `"` that ends the string opened at `open`: one after an even run of backslashes. */
function closingQuote(bytes, open) {
  for (let at = bytes.indexOf(0x22, open + 1); at >= 0; at = bytes.indexOf(0x22, at + 1)) {
    let slashes = 0;
    while (bytes[at - 1 - slashes] === 0x5c) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return bytes.length;
}

/** The keys down to the first value deeper than `maxDepth` (the item itself is level 1), or null. */
function tooDeep(item, maxDepth) {
  const stack = [{ value: item, depth: 1, parent: null, key: '' }];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node.value !== 'object' || node.value === null) continue;
    if (node.depth > maxDepth) {
      const keys = [];
      for (let at = node; at.parent !== null; at = at.parent) keys.push(at.key);
      return keys.reverse();
    }
    for (const key of Object.keys(node.value))
      stack.push({ value: node.value[key], depth: node.depth + 1, parent: node, key });
  }
  return null;
}

/** `/a/b/c`, with the middle left out of a long path. */
function shortPath(keys) {
  const shown = keys.map((key) => `/${key.length > 40 ? `${key.slice(0, 40)}…` : key}`);
  return shown.length > 8
    ? `${shown.slice(0, 4).join('')}/…${shown.slice(-3).join('')}`
    : shown.join('');
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstNonUtf8(bytes) {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    const length =
      b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0) return i;
    // The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF.
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    if (!(bytes[i + 1] >= low && bytes[i + 1] <= high)) return i;
    for (let k = 2; k < length; k++) if (!(bytes[i + k] >= 0x80 && bytes[i + k] <= 0xbf)) return i;
    i += length;
  }
  return bytes.length;
}

const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const ESCAPED = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const LITERALS = new Map([
  [0x74, Buffer.from('true')],
  [0x66, Buffer.from('false')],
  [0x6e, Buffer.from('null')],
]);

/** Where and why `bytes` stop being one JSON value (RFC 8259), or null if they are one. */
function syntaxError(bytes) {
  const n = bytes.length;
  const open = []; // 0x5d for an array, 0x7d for an object
  let i = 0;
  const skipSpace = () => {
    while (i < n && SPACE.has(bytes[i])) i++;
  };
  const fail = (why) => ({ at: i, why: i >= n ? 'unexpected end' : why });
  const digits = () => {
    const start = i;
    while (bytes[i] >= 0x30 && bytes[i] <= 0x39) i++;
    return i > start;
  };
  const string = () => {
    for (i++; i < n; i++) {
      const b = bytes[i];
      if (b === 0x22) {
        i++;
        return null;
      }
      if (b < 0x20) return fail('control character in a string');
      if (b !== 0x5c) continue;
      i++;
      if (bytes[i] === 0x75) {
        for (let k = 0; k < 4; k++) {
          i++;
          if (!/[0-9a-fA-F]/.test(String.fromCharCode(bytes[i] ?? 0)))
            return fail('bad \\u escape');
        }
      } else if (!ESCAPED.has(bytes[i])) return fail('bad escape');
    }
    return fail('unterminated string');
  };
  const key = () => {
    skipSpace();
    if (bytes[i] !== 0x22) return fail('expected a property name');
    const bad = string();
    if (bad) return bad;
    skipSpace();
    if (bytes[i] !== 0x3a) return fail("expected ':'");
    i++;
    return null;
  };
  for (;;) {
    skipSpace();
    const b = bytes[i];
    let bad = null;
    if (b === 0x7b || b === 0x5b) {
      i++;
      skipSpace();
      if (bytes[i] === b + 2) i++;
      else {
        open.push(b + 2);
        if (b === 0x7b) bad = key();
        if (bad) return bad;
        continue;
      }
    } else if (b === 0x22) bad = string();
    else if (b === 0x2d || (b >= 0x30 && b <= 0x39)) {
      if (b === 0x2d) i++;
      if (bytes[i] === 0x30) i++;
      else if (!digits()) return fail('bad number');
      if (bytes[i] === 0x2e) {
        i++;
        if (!digits()) return fail('bad number');
      }
      if (bytes[i] === 0x65 || bytes[i] === 0x45) {
        i++;
        if (bytes[i] === 0x2b || bytes[i] === 0x2d) i++;
        if (!digits()) return fail('bad number');
      }
    } else if (LITERALS.has(b)) {
      const word = LITERALS.get(b);
      if (!bytes.subarray(i, i + word.length).equals(word)) return fail('expected a value');
      i += word.length;
    } else return fail('expected a value');
    if (bad) return bad;
    // After a value: close what it ends, or go on to the next element.
    for (;;) {
      skipSpace();
      const close = open.at(-1);
      if (close === undefined) return i < n ? fail('more after the JSON value') : null;
      if (bytes[i] === close) {
        i++;
        open.pop();
        continue;
      }
      if (bytes[i] !== 0x2c) return fail(`expected ',' or '${String.fromCharCode(close)}'`);
      i++;
      if (close === 0x7d) bad = key();
      if (bad) return bad;
      break;
    }
  }
}
