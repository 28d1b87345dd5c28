// A FIFO with O(1) shift (Array.shift is O(n) and a flood of tiny events made replay quadratic).
export class Fifo<T> {
  private items: T[] = [];
  private first = 0;
  get size(): number {
    return this.items.length - this.first;
  }
  get head(): T | undefined {
    return this.first < this.items.length ? this.items[this.first] : undefined;
  }
  push(x: T): void {
    this.items.push(x);
  }
  shift(): T | undefined {
    const x = this.head;
    this.first++;
    if (this.first >= 1024 && this.first * 2 >= this.items.length) {
      this.items = this.items.slice(this.first);
      this.first = 0;
    }
    return x;
  }
}
