/** Runs one call per item, a few at a time, and keeps each item's outcome (some may fail, the rest go on). */
export interface Outcome<T> {
  item: T;
  ok: boolean;
  error?: unknown;
}

export async function runEach<T>(items: readonly T[], call: (item: T) => Promise<unknown>, concurrency = 4): Promise<Outcome<T>[]> {
  const out = new Array<Outcome<T>>(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const i = next++;
      const item = items[i]!;
      try {
        await call(item);
        out[i] = { item, ok: true };
      } catch (error) {
        out[i] = { item, ok: false, error };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}
