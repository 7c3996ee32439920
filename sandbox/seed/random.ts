/**
 * A small deterministic pseudo-random generator for seed data: sfc32 (Chris Doty-Humphrey's Small Fast Counting
 * generator, 128-bit state, passes PractRand) seeded from a string through the cyrb128 hash. The same seed string
 * always yields the same sequence, on every platform; it is not for anything secret.
 */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string) {
    [this.a, this.b, this.c, this.d] = cyrb128(seed);
    // Discard the first outputs: they are still close to the hash.
    for (let i = 0; i < 15; i++) this.nextUint32();
  }

  /** An independent generator for one part of the data, so adding draws to one part never shifts another. */
  fork(label: string): SeededRandom {
    return new SeededRandom(`${this.nextUint32()}:${label}`);
  }

  nextUint32(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("cannot pick from an empty list");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T {
    const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of choices) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return (choices[choices.length - 1] as readonly [T, number])[0];
  }

  /** `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const result: T[] = [];
    while (result.length < count && pool.length > 0) {
      result.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0] as T);
    }
    return result;
  }

  /** `length` decimal digits (built nine at a time: a million-row seed calls this a lot). */
  digits(length: number): string {
    let result = "";
    while (result.length < length) {
      const chunk = Math.min(9, length - result.length);
      result += String(this.nextUint32() % 10 ** chunk).padStart(chunk, "0");
    }
    return result;
  }

  /** An opaque id body of `length` lower-case letters and digits (base 36, six characters per draw). */
  token(length: number): string {
    let result = "";
    while (result.length < length) {
      const chunk = Math.min(6, length - result.length);
      result += (this.nextUint32() % 36 ** chunk).toString(36).padStart(chunk, "0");
    }
    return result;
  }
}

/** cyrb128 (bryc): a fast 128-bit string hash, used only to turn a seed string into generator state. */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}
