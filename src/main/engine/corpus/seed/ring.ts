/** A fixed-size ring of the newest items: bounded memory however many posts are generated. */
export class Ring<T> {
  private readonly items: T[] = [];
  private head = 0;
  constructor(private readonly capacity: number) {}

  push(item: T): void {
    if (this.items.length < this.capacity) this.items.push(item);
    else {
      this.items[this.head] = item;
      this.head = (this.head + 1) % this.capacity;
    }
  }

  get size(): number {
    return this.items.length;
  }

  /** The k-th newest item (0 = newest). */
  newest(k: number): T {
    const n = this.items.length;
    const newestAt = this.items.length < this.capacity ? n - 1 : (this.head - 1 + n) % n;
    return this.items[(newestAt - k + n * 2) % n]!;
  }
}
