/**
 * Each scoring dimension's share of the total weight, as whole percents that add up to exactly 100
 * (largest-remainder rounding: plain rounding of 1:1:1 shows 33+33+33 = 99). A weight that is not a
 * positive number counts as 0; with no positive weight every share is 0.
 */
export function weightShares(weights: ReadonlyArray<number | string | null | undefined>): number[] {
  const values = weights.map((w) => {
    const n = typeof w === 'string' ? (w.trim() === '' ? NaN : Number(w)) : (w ?? NaN);
    return Number.isFinite(n) && n > 0 ? n : 0;
  });
  const total = values.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return values.map(() => 0);
  const exact = values.map((v) => (v / total) * 100);
  const floors = exact.map(Math.floor);
  let left = 100 - floors.reduce((a, b) => a + b, 0);
  // Hand the missing points to the largest remainders; ties go to the earlier row (stable).
  const order = exact.map((e, i) => ({ i, rem: e - Math.floor(e) })).sort((a, b) => b.rem - a.rem || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    if (values[i]! > 0) {
      floors[i]! += 1;
      left -= 1;
    }
  }
  return floors;
}
