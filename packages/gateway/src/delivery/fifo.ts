/** A FIFO queue with O(1) push and shift that compacts its storage as it drains. */
export class Fifo<T> {
  #items: T[] = [];
  #head = 0;

  /** Items waiting. */
  get size(): number {
    return this.#items.length - this.#head;
  }

  /** @param item - Appended at the tail. */
  push(item: T): void {
    this.#items.push(item);
  }

  /** Removes and returns the head; undefined when empty. */
  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head] as T;
    this.#items[this.#head] = undefined as T;
    this.#head++;
    if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** Drops every item. */
  clear(): void {
    this.#items = [];
    this.#head = 0;
  }
}
