/**
 * A count per priority, for the depth of a queue. Most changes hit the priority the previous one
 * did, so that one is compared first and the Map looked up only when the priority changes.
 */
export class PriorityCounts {
  readonly #priorities: number[] = [];
  readonly #values: number[] = [];
  readonly #indexOf = new Map<number, number>();
  #last = -1;

  add(priority: number, delta: number): void {
    let at = this.#last;
    if (this.#priorities[at] !== priority) {
      at = this.#indexOf.get(priority) ?? this.#insert(priority);
      this.#last = at;
    }
    this.#values[at] = (this.#values[at] as number) + delta;
  }

  /** Each priority seen, with its count, in the order first seen. */
  *entries(): IterableIterator<[priority: number, count: number]> {
    for (let at = 0; at < this.#priorities.length; at++)
      yield [this.#priorities[at] as number, this.#values[at] as number];
  }

  #insert(priority: number): number {
    const at = this.#priorities.length;
    this.#priorities.push(priority);
    this.#values.push(0);
    this.#indexOf.set(priority, at);
    return at;
  }
}
