import type { RawParams } from '../../hr/params.ts';
import { DEFAULT_REDACTION, type Redaction } from '../redaction.ts';
import { operationPath } from './operation-paths.ts';
import { canonical, paramsMatch } from './param-match.ts';
import {
  responseAt,
  type Scenario,
  type ScenarioInput,
  type ScenarioResponse,
} from './scenario-shape.ts';

export {
  FAULTS,
  type Fault,
  MAX_RESPONSES,
  parseScenario,
  responseAt,
  type Scenario,
  type ScenarioInput,
  type ScenarioResponse,
} from './scenario-shape.ts';

type Kept = {
  scenario: Scenario;
  operation: string;
  wanted: Map<string, string>;
  /** The headers a request must carry, names in lower case, values as given (never shown). */
  headers: [string, string][];
};

/** A request header's value by name (any case), or null/undefined when it was not sent. */
export type HeaderOf = (name: string) => string | null | undefined;

/** A scenario that matched a request, and the answer it gives that request. */
export type Played = { scenario: Scenario; respond: ScenarioResponse };

/**
 * The scenarios in force, newest first. `size` is the one check a request pays when none is
 * set; `touches` tells the server which paths must skip its answer cache.
 */
export class ScenarioBook {
  #kept: Kept[] = [];
  #next = 1;
  #paths = new Map<string, number>();
  readonly #redaction: Redaction;
  readonly #watchers = new Set<() => void>();

  /** `redaction`: what the journal never shows, for the values of a scenario's `headers`. */
  constructor(redaction: Redaction = DEFAULT_REDACTION) {
    this.#redaction = redaction;
  }

  get size(): number {
    return this.#kept.length;
  }

  /**
   * Adds a scenario already checked by `parseScenario`; what it returns and lists shows a secret
   * header value (`X-API-KEY`, `Authorization`, …) as `[redacted]`, as the journal does.
   */
  add(input: ScenarioInput): Scenario {
    const scenario: Scenario = { id: `s${this.#next++}`, ...input, matched: 0 };
    const operation = operationPath(input.path) as string;
    const wanted = new Map<string, string>();
    for (const [name, value] of Object.entries(input.params ?? {}))
      wanted.set(name, canonical(value));
    const headers = Object.entries(input.headers ?? {});
    if (input.headers !== undefined)
      scenario.headers = Object.fromEntries(
        headers.map(([name, value]) => [name, this.#redaction.headerValue(name, value)]),
      );
    const lowered = headers.map(([name, value]): [string, string] => [name.toLowerCase(), value]);
    this.#kept.unshift({ scenario, operation, wanted, headers: lowered });
    this.#paths.set(operation, (this.#paths.get(operation) ?? 0) + 1);
    this.#changed();
    return scenario;
  }

  list(): Scenario[] {
    return this.#kept
      .map(({ scenario }) => {
        const { respond } = scenario;
        return { ...scenario, respond: Array.isArray(respond) ? [...respond] : respond };
      })
      .reverse();
  }

  remove(id: string): boolean {
    const at = this.#kept.findIndex((k) => k.scenario.id === id);
    if (at < 0) return false;
    this.#drop(at);
    return true;
  }

  clear(): void {
    this.#kept = [];
    this.#paths.clear();
    this.#changed();
  }

  /** Calls `watcher` when a scenario is added, matched, spent or removed; returns its stop. */
  watch(watcher: () => void): () => void {
    this.#watchers.add(watcher);
    return () => void this.#watchers.delete(watcher);
  }

  #changed() {
    for (const watcher of [...this.#watchers]) watcher();
  }

  /** Whether some scenario is kept for the operation a URL reaches. */
  touches(url: string): boolean {
    const operation = operationPath(url);
    return operation !== undefined && this.#paths.has(operation);
  }

  /** Whether any scenario needs the request's parameters to decide. */
  needsParams(url: string): boolean {
    const operation = operationPath(url);
    return this.#kept.some((k) => k.operation === operation && k.wanted.size > 0);
  }

  /**
   * The newest scenario matching the request (method, parameters, headers), counted as used
   * (spent after `times`), with the answer it gives this match: the next of a `respond` list,
   * its last one once played through.
   */
  take(
    method: string,
    url: string,
    params: () => RawParams,
    header: HeaderOf = () => undefined,
  ): Played | undefined {
    const operation = operationPath(url);
    if (operation === undefined) return undefined;
    let raw: RawParams | undefined;
    for (let at = 0; at < this.#kept.length; at++) {
      const kept = this.#kept[at] as Kept;
      if (kept.operation !== operation) continue;
      if (kept.scenario.method !== undefined && kept.scenario.method !== method) continue;
      if (!kept.headers.every(([name, value]) => header(name) === value)) continue;
      if (kept.wanted.size > 0) {
        raw ??= params();
        if (!paramsMatch(kept.wanted, raw)) continue;
      }
      const { scenario } = kept;
      const respond = responseAt(scenario.respond, scenario.matched++);
      if (scenario.times !== undefined && scenario.matched >= scenario.times) this.#drop(at);
      else this.#changed();
      return { scenario, respond };
    }
    return undefined;
  }

  #drop(at: number) {
    const [kept] = this.#kept.splice(at, 1);
    if (kept === undefined) return;
    const left = (this.#paths.get(kept.operation) ?? 1) - 1;
    if (left === 0) this.#paths.delete(kept.operation);
    else this.#paths.set(kept.operation, left);
    this.#changed();
  }
}
