/**
 * Docs by container and key (or reference), as the API names objects. Nested maps reuse the key
 * strings the docs hold, where one map by `containerKey/key` would build 100,000 more strings.
 */
export class RefIndex<T> {
  readonly #byContainer = new Map<string, Map<string, T>>();
  /** The container last looked up, and its map (undefined when it has none). */
  #lastKey: string | undefined;
  #lastMap: Map<string, T> | undefined;

  set(containerKey: string, id: string, value: T): void {
    let inContainer = this.#byContainer.get(containerKey);
    if (inContainer === undefined) {
      inContainer = new Map();
      this.#byContainer.set(containerKey, inContainer);
      // A container looked up before it had a map has one now.
      this.#lastKey = undefined;
    }
    inContainer.set(id, value);
  }

  find(containerKey: string, id: string): T | undefined {
    // A batch names one container again and again: its map is looked up once for the run.
    if (containerKey !== this.#lastKey) {
      this.#lastKey = containerKey;
      this.#lastMap = this.#byContainer.get(containerKey);
    }
    return this.#lastMap?.get(id);
  }

  /** By `containerKey/id`, the form `refId` makes. */
  get(ref: string): T | undefined {
    const slash = ref.indexOf('/');
    return slash < 0 ? undefined : this.find(ref.slice(0, slash), ref.slice(slash + 1));
  }

  has(ref: string): boolean {
    return this.get(ref) !== undefined;
  }
}
