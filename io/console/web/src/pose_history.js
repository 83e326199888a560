// The 3D view's sample history (docs/console.md "3D"): rows of the pose channels
// (scene_model.js poseChannels) by tick, from the console's sample frames, in a fixed ring of
// typed arrays: 10 minutes at 100 rows/s. Rows are kept at least `minSpacingTicks` apart, but
// the newest row is always the newest sample, so the live view shows the exact newest pose and
// a paused run stepped to tick k shows tick k.

export class PoseHistory {
  constructor(width, capacity = 60000, minSpacingTicks = 40) {
    this.width = width;
    this.capacity = capacity;
    this.minSpacing = minSpacingTicks;
    this.ticks = new Float64Array(capacity);
    this.values = new Float64Array(capacity * width);
    this.start = 0;  // ring index of row 0
    this.length = 0;
  }
  clear() { this.start = 0; this.length = 0; }
  slot(i) { return (this.start + i) % this.capacity; }
  tick(i) { return this.ticks[this.slot(i)]; }
  value(i, j) { return this.values[this.slot(i) * this.width + j]; }
  row(i) { const s = this.slot(i) * this.width; return Array.from(this.values.subarray(s, s + this.width)); }
  get newestTick() { return this.length ? this.tick(this.length - 1) : null; }
  get oldestTick() { return this.length ? this.tick(0) : null; }

  /// Adds one sample: `valueOf(j)` is the value of pose channel j. Ticks it holds are skipped.
  add(tick, valueOf) {
    const n = this.length;
    if (n && tick <= this.tick(n - 1)) return false;
    let slot;
    if (n >= 2 && this.tick(n - 1) - this.tick(n - 2) < this.minSpacing) {
      slot = this.slot(n - 1);  // the newest row was provisional: replaced
    } else if (n < this.capacity) {
      slot = this.slot(n);
      this.length = n + 1;
    } else {
      slot = this.start;  // full: the oldest row goes
      this.start = (this.start + 1) % this.capacity;
    }
    this.ticks[slot] = tick;
    for (let j = 0; j < this.width; ++j) this.values[slot * this.width + j] = valueOf(j);
    return true;
  }

  /// Adds the samples of a decoded frame (samples.js decodeFrame); `columns[j]` is the frame
  /// channel of pose channel j (-1: not in the frame, NaN). Returns the number of rows added.
  addFrame(frame, columns) {
    const { first, stride, n, all } = frame;
    let added = 0;
    for (let i = 0; i < n; ++i) {
      if (this.add(first + i * stride, (j) => (columns[j] >= 0 ? all[columns[j] * n + i] : NaN))) ++added;
    }
    return added;
  }

  /// The last row at or before `tick` (-1: none).
  rowAtOrBefore(tick) {
    let lo = 0, hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.tick(mid) <= tick) lo = mid + 1; else hi = mid;
    }
    return lo - 1;
  }
}
