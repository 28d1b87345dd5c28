// A FIFO with O(1) shift (Array.shift is O(n) and a flood of tiny events made replay quadratic): a ring that
// doubles when full, so a steady stream of events allocates nothing (the array it replaced was copied every 1024
// shifts).
export class Fifo<T> {
  private items: Array<T | undefined> = new Array<T | undefined>(16);
  private first = 0;
  private count = 0;
  get size(): number {
    return this.count;
  }
  get head(): T | undefined {
    return this.count ? this.items[this.first] : undefined;
  }
  push(x: T): void {
    if (this.count === this.items.length) {
      const grown = new Array<T | undefined>(this.items.length * 2);
      for (let i = 0; i < this.count; i++) grown[i] = this.items[(this.first + i) % this.items.length];
      this.items = grown;
      this.first = 0;
    }
    this.items[(this.first + this.count) % this.items.length] = x;
    this.count++;
  }
  shift(): T | undefined {
    if (!this.count) return undefined;
    const x = this.items[this.first];
    this.items[this.first] = undefined; // let the event go
    this.first = (this.first + 1) % this.items.length;
    this.count--;
    return x;
  }
}
