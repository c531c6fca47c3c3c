// Typed arrays that grow by doubling: the emulator's columnar storage of session and message skeletons,
// compact enough to hold millions of messages (a few bytes each) without materialising records.
type TypedArray = Float64Array | Uint32Array | Uint16Array | Uint8Array | Int16Array | Int32Array;
type TypedArrayCtor<T extends TypedArray> = new (length: number) => T;

export class Growable<T extends TypedArray> {
  data: T;
  length = 0;
  private readonly ctor: TypedArrayCtor<T>;

  constructor(ctor: TypedArrayCtor<T>, capacity = 1024) {
    this.ctor = ctor;
    this.data = new ctor(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new this.ctor(this.data.length * 2);
      next.set(this.data as never);
      this.data = next;
    }
    this.data[this.length++] = value;
  }

  get(index: number): number {
    return this.data[index] as number;
  }

  set(index: number, value: number): void {
    this.data[index] = value;
  }
}

/** First index in a sorted numeric column whose value is >= x (or length). */
export function lowerBound(column: { get(i: number): number }, length: number, x: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (column.get(mid) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in a sorted numeric column whose value is > x (or length). */
export function upperBound(column: { get(i: number): number }, length: number, x: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (column.get(mid) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
