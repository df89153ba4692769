import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { runBash } from '../support/run-bash.ts';

/** The repository root: where `uses: <owner>/hrmock@<ref>` puts the action. */
export const root = fileURLToPath(new URL('../../', import.meta.url));

export type ActionStep = {
  name?: string;
  id?: string;
  shell?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
};

export type Action = {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: ActionStep[] };
};

export type StepRun = {
  name: string;
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
};

export type ActionRun = {
  /** The steps that ran, in order; after a failing step GitHub runs no more of them. */
  steps: StepRun[];
  /** The action's `outputs:`, evaluated from its steps' outputs as GitHub does. */
  outputs: Record<string, string>;
  /** What the steps appended to `$GITHUB_STEP_SUMMARY`. */
  summary: string;
  /** Whether every step exited 0 (the action's step in the calling job succeeded). */
  ok: boolean;
};

export function readAction(): Action {
  return parse(readFileSync(join(root, 'action.yml'), 'utf8')) as Action;
}

type Context = {
  inputs: Record<string, string>;
  steps: Record<string, Record<string, string>>;
};

/**
 * `${{ … }}` replaced as the runner replaces it before the shell sees the text. An expression
 * this runner does not evaluate fails the test rather than being guessed.
 */
export function substitute(text: string, context: Context): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expression);
    if (input !== null) return context.inputs[input[1] as string] ?? '';
    if (expression === 'github.action_path') return root.replace(/\/$/, '');
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
    if (output !== null) return context.steps[output[1] as string]?.[output[2] as string] ?? '';
    throw new Error(`the test's runner does not evaluate \${{ ${expression} }}`);
  });
}

/** The inputs as the action sees them: the given ones over the defaults, all strings. */
export function actionInputs(
  action: Action,
  given: Record<string, string>,
): Record<string, string> {
  const unknown = Object.keys(given).filter((name) => !(name in action.inputs));
  if (unknown.length > 0) throw new Error(`action.yml has no input ${unknown.join(', ')}`);
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) {
    const value = given[name] ?? input.default ?? '';
    if (input.required === true && value === '') throw new Error(`input ${name} is required`);
    inputs[name] = String(value);
  }
  return inputs;
}

/** `name=value` lines and `name<<DELIMITER` blocks, as `$GITHUB_OUTPUT` holds them. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block !== null) {
      const end = lines.indexOf(block[2] as string, i + 1);
      if (end < 0) throw new Error(`$GITHUB_OUTPUT: no closing ${block[2]}`);
      outputs[block[1] as string] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) {
      const at = line.indexOf('=');
      outputs[line.slice(0, at)] = line.slice(at + 1);
    } else if (line.trim() !== '') throw new Error(`$GITHUB_OUTPUT: a line without = (${line})`);
  }
  return outputs;
}

/**
 * The runner's environment: no node_modules/.bin on the PATH (a workflow has none), the
 * variables GitHub sets for a composite action's `run:` step, and none of this test process.
 */
function runnerEnv(workspace: string, temp: string): Record<string, string> {
  const path = (process.env.PATH ?? '/usr/bin:/bin')
    .split(delimiter)
    .filter((dir) => !dir.includes('node_modules'))
    .join(delimiter);
  return {
    PATH: path,
    HOME: process.env.HOME ?? temp,
    TMPDIR: temp,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_ACTION_PATH: root.replace(/\/$/, ''),
    RUNNER_TEMP: temp,
  };
}

/** As `shell: bash` runs a step: bash --noprofile --norc -eo pipefail {0}. */
async function bash(script: string, env: Record<string, string>, cwd: string) {
  const { code, stdout, stderr } = await runBash(['-eo', 'pipefail', script], cwd, env);
  return { code, stdout, stderr };
}

/**
 * Runs action.yml's steps in order as a runner does for `uses: ./` with `with: given`, in
 * `workspace` (the job's working directory), `temp` holding the runner's files.
 */
export async function runAction(
  given: Record<string, string>,
  workspace: string,
  temp: string,
): Promise<ActionRun> {
  const action = readAction();
  const context: Context = { inputs: actionInputs(action, given), steps: {} };
  const summaryFile = join(temp, 'step-summary.md');
  await writeFile(summaryFile, '');
  const steps: StepRun[] = [];
  for (const [index, step] of action.runs.steps.entries()) {
    if (step.uses !== undefined || step.if !== undefined || step['working-directory'])
      throw new Error(`the test's runner runs plain run: steps, not ${JSON.stringify(step)}`);
    if (step.shell !== 'bash') throw new Error(`step ${index} has shell ${step.shell}, not bash`);
    // Each step gets its own $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY, gathered after it ends.
    const script = join(temp, `step-${index}.sh`);
    const outputFile = join(temp, `output-${index}`);
    const stepSummary = join(temp, `summary-${index}.md`);
    await writeFile(script, substitute(step.run ?? '', context));
    await writeFile(outputFile, '');
    await writeFile(stepSummary, '');
    const stepEnv = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([name, value]) => [
        name,
        substitute(String(value), context),
      ]),
    );
    const env = {
      ...runnerEnv(workspace, temp),
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: stepSummary,
      ...stepEnv,
    };
    const result = await bash(script, env, workspace);
    const outputs = parseOutputFile(await readFile(outputFile, 'utf8'));
    if (step.id !== undefined) context.steps[step.id] = outputs;
    await writeFile(summaryFile, await readFile(stepSummary, 'utf8'), { flag: 'a' });
    steps.push({ name: step.name ?? `step ${index}`, ...result, outputs });
    if (result.code !== 0) break;
  }
  const outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([name, output]) => [
      name,
      substitute(output.value, context),
    ]),
  );
  return {
    steps,
    outputs,
    summary: await readFile(summaryFile, 'utf8'),
    ok: steps.length === action.runs.steps.length && steps.every((s) => s.code === 0),
  };
}
