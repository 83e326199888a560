// pose_history.js, the 3D view's sample history (docs/console.md "3D"): rows land at their
// ticks from the console's frames, a backfill does not repeat them, rows are kept 10 ms apart
// but the newest is always the newest sample, the ring keeps the newest when full, and the
// cursor finds the row at or before its tick.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PoseHistory } from '../src/pose_history.js';
import { decodeFrame } from '../src/samples.js';

/// A sample frame (docs/console.md "Binary sample frame") of channels[k] = values per sample.
function frame(first, stride, channels) {
  const n = channels[0].length, c = channels.length;
  const buf = new ArrayBuffer(32 + 24 * n * c), dv = new DataView(buf);
  dv.setUint8(0, 1); dv.setUint16(2, 2, true);
  dv.setBigInt64(8, BigInt(first), true); dv.setUint32(16, stride, true);
  dv.setUint16(20, n, true); dv.setUint16(22, c, true);
  const all = new Float64Array(buf, 32, 3 * n * c);
  channels.forEach((v, k) => { all.set(v, k * n); all.set(v.map(() => -1), (c + k) * n); all.set(v.map(() => 1e9), (2 * c + k) * n); });
  return decodeFrame(buf);
}

test('a frame\'s samples become rows in the pose channels\' order, a missing channel NaN', () => {
  const h = new PoseHistory(3, 100, 1);
  // the subscription holds pose channels 2 and 0 (in that order); pose channel 1 is not in it
  assert.equal(h.addFrame(frame(100, 4, [[20, 21, 22], [0, 1, 2]]), [1, -1, 0]), 3);
  assert.deepEqual([0, 1, 2].map((i) => h.tick(i)), [100, 104, 108]);
  assert.deepEqual(h.row(1), [1, NaN, 21], 'values, not the minima or maxima');
  assert.equal(h.addFrame(frame(104, 4, [[0, 0, 0], [0, 0, 0]]), [1, -1, 0]), 1, 'a backfill\'s repeated ticks are skipped');
  assert.deepEqual([h.length, h.newestTick, h.oldestTick], [4, 112, 100]);
});

test('rows 10 ms apart, and the newest row is always the newest sample', () => {
  const h = new PoseHistory(1, 1000, 40);  // 40 ticks of 250 µs
  for (let tick = 0; tick <= 400; tick += 4) h.add(tick, () => tick);
  const ticks = Array.from({ length: h.length }, (_, i) => h.tick(i));
  assert.deepEqual(ticks, [0, 40, 80, 120, 160, 200, 240, 280, 320, 360, 400]);
  h.add(404, () => 404);
  assert.equal(h.newestTick, 404, 'a live view shows the newest sample');
  h.add(408, () => 408);
  assert.deepEqual([h.length, h.newestTick, h.value(h.length - 1, 0)], [12, 408, 408], 'the provisional row replaced');
});

test('a full ring keeps the newest rows', () => {
  const h = new PoseHistory(2, 5, 1);
  for (let t = 1; t <= 12; ++t) h.add(t, (j) => t * 10 + j);
  assert.equal(h.length, 5);
  assert.deepEqual(Array.from({ length: 5 }, (_, i) => h.tick(i)), [8, 9, 10, 11, 12]);
  assert.deepEqual(h.row(0), [80, 81]);
  h.clear();
  assert.deepEqual([h.length, h.newestTick, h.rowAtOrBefore(100)], [0, null, -1]);
});

test('the cursor: the row at or before its tick', () => {
  const h = new PoseHistory(1, 4, 1);
  for (const t of [10, 20, 30, 40, 50, 60]) h.add(t, () => t);  // holds 30..60
  assert.equal(h.rowAtOrBefore(29), -1, 'before the history');
  assert.equal(h.tick(h.rowAtOrBefore(30)), 30);
  assert.equal(h.tick(h.rowAtOrBefore(45)), 40);
  assert.equal(h.tick(h.rowAtOrBefore(Infinity)), 60, 'live');
});
