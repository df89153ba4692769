import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The type assertions of types.test-d.ts do nothing at run time: the type checker runs them here,
// in process, with the repository's compiler options, beside a planted wrong one it must refuse.
const root = fileURLToPath(new URL('../', import.meta.url));
const assertions = fileURLToPath(new URL('types.test-d.ts', import.meta.url));
const planted = fileURLToPath(new URL('types-planted.test-d.ts', import.meta.url));
const PLANTED = `import type { Profile } from 'hrmock';
import { expectTypeOf } from 'vitest';
expectTypeOf<Profile['skills'][number]['type']>().toEqualTypeOf<'hard'>();
`;

/** Each file's type errors, one line each, from one program over both files. */
function typeErrors(): Map<string, string[]> {
  const configFile = ts.readConfigFile(`${root}tsconfig.json`, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => file === planted || fileExists(file);
  host.readFile = (file) => (file === planted ? PLANTED : readFile(file));
  host.getSourceFile = (file, language, ...rest) =>
    file === planted
      ? ts.createSourceFile(file, PLANTED, language)
      : getSourceFile(file, language, ...rest);
  const program = ts.createProgram([assertions, planted], options, host);
  const errors = new Map<string, string[]>();
  for (const file of [assertions, planted]) {
    const source = program.getSourceFile(file);
    const found = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    errors.set(
      file,
      found.map((d) => {
        const line =
          d.start === undefined ? 0 : (source?.getLineAndCharacterOfPosition(d.start).line ?? 0);
        return `line ${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      }),
    );
  }
  return errors;
}

describe('the type assertions of types.test-d.ts', () => {
  const errors = typeErrors();

  it('all hold', () => {
    expect(errors.get(assertions)).toEqual([]);
  });

  it('would fail on a wrong type (a planted assertion that skills are only hard)', () => {
    expect(errors.get(planted)?.join('\n')).toMatch(/line 3: /);
  });
});
