/** Names as small integers, so per-object features are arrays of numbers, not sets of strings. */
export class Interner {
  readonly #ids = new Map<string, number>();
  readonly names: string[] = [];

  /** The id of `name`, given a new one the first time it is seen. */
  intern(name: string): number {
    let id = this.#ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.#ids.set(name, id);
      this.names.push(name);
    }
    return id;
  }

  /** The one copy of `name` kept here, so that equal names share a string. */
  canonical(name: string): string {
    return this.names[this.intern(name)] as string;
  }

  /** The id of `name`, or -1 when no object has it. */
  find(name: string): number {
    return this.#ids.get(name) ?? -1;
  }

  get size(): number {
    return this.names.length;
  }
}
