import { describe, expect, it } from 'vitest';
import { TextIndexBuilder } from '../../src/engine/text-index.ts';

const TEXTS = [
  'banana bandana. ban',
  'python, python and pythonic code',
  'nothing to see',
  'c++ and c# and more c',
];

function index() {
  const builder = new TextIndexBuilder();
  TEXTS.forEach((text, i) => {
    builder.add(i, text);
  });
  return builder.build(TEXTS.length);
}

describe('TextIndex', () => {
  it('counts a word inside tokens, without overlap, from the postings', () => {
    const found = index().candidates('an');
    expect([...(found?.set.ids ?? [])]).toEqual([0, 1, 3]);
    // banana 2, bandana 2, ban 1; and 1; and 2.
    expect([...(found?.hits ?? [])]).toEqual([5, 1, 2]);
  });

  it('counts a keyword of several words by its least frequent word', () => {
    const found = index().candidates('python code');
    expect([...(found?.set.ids ?? [])]).toEqual([1]);
    expect([...(found?.hits ?? [])]).toEqual([1]);
    expect(found?.exact).toBe(false);
  });

  it('finds nothing to look up in a keyword without letters or digits', () => {
    expect(index().candidates('++')).toBeNull();
  });

  it('costs the postings of every token holding each word, cached or not', () => {
    const text = index();
    // "an": banana, bandana, ban (doc 0), and (docs 1, 3); at most every doc (4) found.
    const before = text.cost('an');
    text.candidates('an');
    expect(before).toEqual({ postings: 5, docs: 4, exact: true });
    expect(text.cost('an')).toEqual(before);
    expect(text.cost('zzz')).toEqual({ postings: 0, docs: 0, exact: true });
    expect(text.cost('.').docs).toBe(TEXTS.length);
  });
});
