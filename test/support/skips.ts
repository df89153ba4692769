// A test that needs a tool this machine lacks fails on CI and is skipped elsewhere, and a run that
// skipped some says so once, at its end. Registered in vitest.config.ts as a globalSetup:
// `setup` names a file for the run, each skip appends a line to it, `teardown` prints the summary.
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a group of tests needs: who it is, what is missing, how to install it, what requires it. */
export type Need = { tests: string; missing: string; install: string; requiredBy: string };

const FILE = 'HRMOCK_SKIPS_FILE';

/** Whether this run must have every tool: on CI (`CI=true`), or when `requiredBy` is set to 1. */
export function required(need: Need, env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI !== undefined && !['', '0', 'false'].includes(env.CI.toLowerCase());
  return ci || env[need.requiredBy] === '1';
}

/** The error a missing tool is where it is required. */
export function missingError(need: Need): Error {
  return new Error(
    `${need.tests} cannot run: ${need.missing}. Install it (${need.install}); CI=true or ${need.requiredBy}=1 requires it`,
  );
}

/**
 * Whether the tests may run; `false` (skip them) only off CI, after noting the skip for the run's
 * summary. Throws where the tool is required.
 */
export function canRun(
  need: Need,
  present: boolean,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (present) return true;
  if (required(need, env)) throw missingError(need);
  const file = env[FILE];
  const line = JSON.stringify(need);
  // Without the globalSetup (a config that does not register it), say it here instead.
  if (file === undefined) process.stderr.write(`${summary([line])}\n`);
  else appendFileSync(file, `${line}\n`);
  return false;
}

/** One line naming every group skipped and how to run it, from the lines `canRun` noted. */
export function summary(lines: string[]): string {
  const needs = [...new Set(lines.filter((l) => l.trim() !== ''))].map(
    (l) => JSON.parse(l) as Need,
  );
  const parts = needs.map((n) => `${n.tests} (${n.missing}: ${n.install})`);
  const variables = needs.map((n) => `${n.requiredBy}=1`).join(' / ');
  return `skipped ${parts.join('; ')}. Install what is named to run them; CI=true or ${variables} makes a missing one fail.`;
}

/** globalSetup: a fresh file for this run's skips. */
export function setup(): void {
  process.env[FILE] = join(tmpdir(), `hrmock-skips-${process.pid}-${Date.now()}.jsonl`);
}

/** globalSetup teardown: the summary, when anything was skipped. */
export function teardown(): void {
  const file = process.env[FILE];
  if (file === undefined) return;
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // No file: nothing was skipped.
  }
  rmSync(file, { force: true });
  if (text.trim() !== '') process.stderr.write(`\n${summary(text.split('\n'))}\n`);
}
