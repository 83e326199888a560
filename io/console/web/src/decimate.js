// Min/max per pixel column: every sample the console sends carries the minimum and maximum of
// the ticks it stands for; a column draws the min..max of all its samples and its last value,
// so a one-tick spike stays visible however long the window (docs/console.md).

/// Index of the first sample at or after tick `tick` (buffers are in tick order).
export function lowerBound(ticks, tick) {
  let lo = 0, hi = ticks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ticks[mid] < tick) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/// `n` columns over [t0, t1] seconds; null where a column holds no sample.
export function columns(b, t0, t1, n, periodS) {
  const v = new Array(n).fill(null), lo = new Array(n).fill(null), hi = new Array(n).fill(null);
  if (!b || t1 <= t0) return { v, lo, hi };
  const width = (t1 - t0) / n;
  for (let i = lowerBound(b.tick, Math.ceil(t0 / periodS)); i < b.tick.length; ++i) {
    const t = b.tick[i] * periodS;
    if (t > t1) break;
    const c = Math.min(n - 1, Math.floor((t - t0) / width));
    v[c] = b.v[i];
    if (lo[c] === null || b.lo[i] < lo[c] || Number.isNaN(b.lo[i])) lo[c] = b.lo[i];
    if (hi[c] === null || b.hi[i] > hi[c] || Number.isNaN(b.hi[i])) hi[c] = b.hi[i];
  }
  return { v, lo, hi };
}

/// The x of each column: its centre [s].
export function columnTimes(t0, t1, n) {
  const width = (t1 - t0) / n;
  return Array.from({ length: n }, (_, c) => t0 + (c + 0.5) * width);
}
