/**
 * Docs by container and key (or reference), as the API names objects. Nested maps reuse the key
 * strings the docs hold, where one map by `containerKey/key` would build 100,000 more strings.
 */
export class RefIndex<T> {
  readonly #byContainer = new Map<string, Map<string, T>>();

  set(containerKey: string, id: string, value: T): void {
    let inContainer = this.#byContainer.get(containerKey);
    if (inContainer === undefined) {
      inContainer = new Map();
      this.#byContainer.set(containerKey, inContainer);
    }
    inContainer.set(id, value);
  }

  find(containerKey: string, id: string): T | undefined {
    return this.#byContainer.get(containerKey)?.get(id);
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
