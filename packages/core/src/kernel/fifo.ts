/**
 * A first-in-first-out line as an array and a head index, for the runtime's per-event queues (the
 * keyed queue, the resume point's line, a board's seqs in flight, the runs' deadlines). `shift()` on
 * a long array copies it every time; this line drops its head in constant time, empties the slot it
 * leaves (an old array still pointing at a young item kept it, and all it reaches, through every
 * garbage collection), and gives the array's
 * front back once the dropped part is half of it.
 */
export class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  /** Items in the line. */
  get size(): number {
    return this.items.length - this.head;
  }

  /** The first item, or undefined when the line is empty. */
  peek(): T | undefined {
    return this.items[this.head];
  }

  /** The last item, or undefined when the line is empty. */
  last(): T | undefined {
    return this.head < this.items.length ? this.items[this.items.length - 1] : undefined;
  }

  /** The first `n` items (fewer when the line is shorter), left in the line. */
  first(n: number): T[] {
    return this.items.slice(this.head, this.head + n) as T[];
  }

  /** Adds an item at the end. */
  push(item: T): void {
    this.items.push(item);
  }

  /**
   * Adds an item before the trailing items that `goesAfter` says belong behind it: for a line kept
   * in order whose items mostly arrive in order (then it is a push).
   * @param item - the item
   * @param goesAfter - whether an item already in the line belongs behind `item`
   */
  insert(item: T, goesAfter: (queued: T) => boolean): void {
    const { items } = this;
    let i = items.length;
    while (i > this.head && goesAfter(items[i - 1] as T)) i--;
    if (i === items.length) items.push(item);
    else items.splice(i, 0, item);
  }

  /** Removes and returns the first item. */
  shift(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head === this.items.length) {
      this.items.length = 0;
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Keeps only the items `keep` accepts, in order. */
  retain(keep: (item: T) => boolean): void {
    this.items = this.items.slice(this.head).filter((item) => keep(item as T));
    this.head = 0;
  }

  /** Empties the line; returns what it held, in order. */
  drain(): T[] {
    const items = this.items.slice(this.head) as T[];
    this.items = [];
    this.head = 0;
    return items;
  }
}
