// samples.js: the page's samples from the console's binary frames (docs/console.md "Binary
// sample frame"): each sample's value, min and max land in the right channel at the right
// tick, a backfill does not duplicate ticks, 10 minutes are kept and no more, and the CSV
// export takes the ticks every plotted channel holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addFrame, clearAll, commonRows, MAX_WINDOW_S, newestTime } from '../src/samples.js';
import { toCsv } from '../src/csv.js';

const PERIOD_NS = 250000;
const PERIOD_S = PERIOD_NS * 1e-9;

/// A binary sample frame as the server sends it: channels[k] = {v, lo, hi} (arrays of n).
function frame({ first, stride = 4, channels, backfill = false, wallMs = 1.7e12, id = 1, seq = 0 }) {
  const n = channels[0].v.length, c = channels.length;
  const buf = new ArrayBuffer(32 + 3 * 8 * n * c);
  const dv = new DataView(buf);
  dv.setUint8(0, 1);
  dv.setUint8(1, backfill ? 1 : 0);
  dv.setUint16(2, id, true);
  dv.setUint32(4, seq, true);
  dv.setBigInt64(8, BigInt(first), true);
  dv.setUint32(16, stride, true);
  dv.setUint16(20, n, true);
  dv.setUint16(22, c, true);
  dv.setFloat64(24, wallMs, true);
  const all = new Float64Array(buf, 32, 3 * n * c);
  channels.forEach((ch, k) => {
    all.set(ch.v, k * n);
    all.set(ch.lo ?? ch.v, (c + k) * n);
    all.set(ch.hi ?? ch.v, (2 * c + k) * n);
  });
  return buf;
}
const ramp = (n, from, step = 1) => Array.from({ length: n }, (_, i) => from + i * step);

test('each sample\'s value, min and max land in its channel at its tick', () => {
  const buffers = new Map();
  // the subscription's channels 7 and 3 (indices into the run's channel list), in that order
  const buf = frame({ first: 100, stride: 4, wallMs: 1234.5, channels: [
    { v: [1, 2, 3], lo: [0.5, 1.5, 2.5], hi: [1.5, 2.5, 300] },
    { v: [-1, -2, -3], lo: [-10, -20, -30], hi: [10, 20, 30] }] });
  const { wallMs, live } = addFrame(buffers, [7, 3], buf, PERIOD_NS);
  assert.equal(wallMs, 1234.5);
  assert.equal(live, true);
  assert.deepEqual([...buffers.keys()].sort(), [3, 7]);
  assert.deepEqual(buffers.get(7), { tick: [100, 104, 108], v: [1, 2, 3], lo: [0.5, 1.5, 2.5], hi: [1.5, 2.5, 300] });
  assert.deepEqual(buffers.get(3), { tick: [100, 104, 108], v: [-1, -2, -3], lo: [-10, -20, -30], hi: [10, 20, 30] });
});

test('a backfill is not live, and the ticks it repeats are not added twice', () => {
  const buffers = new Map();
  addFrame(buffers, [0], frame({ first: 0, channels: [{ v: ramp(5, 0) }] }), PERIOD_NS);  // ticks 0..16
  const { live } = addFrame(buffers, [0], frame({ first: 8, backfill: true, channels: [{ v: ramp(5, 100) }] }), PERIOD_NS);
  assert.equal(live, false);
  const b = buffers.get(0);
  assert.deepEqual(b.tick, [0, 4, 8, 12, 16, 20, 24], 'ticks 8..16 once, in order');
  assert.deepEqual(b.v, [0, 1, 2, 3, 4, 103, 104], 'the first value of a tick is kept');
  assert.equal(b.lo.length, 7);
  assert.equal(b.hi.length, 7);
});

test('a frame with more channels than the page subscribed to fills only those', () => {
  const buffers = new Map();
  addFrame(buffers, [5], frame({ first: 0, channels: [{ v: [1] }, { v: [2] }] }), PERIOD_NS);
  assert.deepEqual([...buffers.keys()], [5]);
  addFrame(buffers, [], frame({ first: 4, channels: [{ v: [1] }] }), PERIOD_NS);
  assert.deepEqual(buffers.get(5).tick, [0], 'unsubscribed: nothing added');
});

test('a channel keeps the last 10 minutes and not much more', () => {
  assert.equal(MAX_WINDOW_S, 600);
  const buffers = new Map();
  const stride = 400, n = 1000;  // a sample per 0.1 s: 6000 samples are 10 min
  const keep = MAX_WINDOW_S / (stride * PERIOD_S);
  for (let f = 0; f < 20; ++f) {  // 2000 s
    addFrame(buffers, [0], frame({ first: f * n * stride, stride, channels: [{ v: ramp(n, f * n) }] }), PERIOD_NS);
    const b = buffers.get(0);
    const seconds = (b.tick[b.tick.length - 1] - b.tick[0]) * PERIOD_S;
    assert.ok(b.tick.length <= keep * 1.1, `frame ${f}: ${b.tick.length} samples kept`);
    assert.ok(seconds >= Math.min(MAX_WINDOW_S, (f + 1) * 100) - 0.1 - 1e-9, `frame ${f}: ${seconds} s kept`);
    assert.equal(b.tick[b.tick.length - 1], ((f + 1) * n - 1) * stride, 'the newest sample is there');
    assert.ok(b.v.length === b.tick.length && b.lo.length === b.tick.length && b.hi.length === b.tick.length);
    assert.equal(b.v[0], b.tick[0] / stride, 'values cut with their ticks');
  }
});

test('the live window ends at the newest sample of any channel', () => {
  const buffers = new Map();
  assert.equal(newestTime(buffers, PERIOD_S), 0);
  addFrame(buffers, [0, 1], frame({ first: 40000, channels: [{ v: [1, 2] }, { v: [3, 4] }] }), PERIOD_NS);
  addFrame(buffers, [1], frame({ first: 40008, channels: [{ v: [5] }] }), PERIOD_NS);
  assert.equal(newestTime(buffers, PERIOD_S), 40008 * PERIOD_S);
});

test('Clear empties every channel; the next frames fill it again', () => {
  const buffers = new Map();
  addFrame(buffers, [0, 1], frame({ first: 0, channels: [{ v: [1, 2] }, { v: [3, 4] }] }), PERIOD_NS);
  clearAll(buffers);
  for (const b of buffers.values()) assert.deepEqual(b, { tick: [], v: [], lo: [], hi: [] });
  assert.equal(newestTime(buffers, PERIOD_S), 0);
  addFrame(buffers, [0, 1], frame({ first: 0, backfill: true, channels: [{ v: [1, 2] }, { v: [3, 4] }] }), PERIOD_NS);
  assert.deepEqual(buffers.get(1).v, [3, 4]);
});

test('the CSV export has the ticks of the shown range that every plotted channel holds', () => {
  const buffers = new Map();
  // channel 0 plotted from tick 0; then channel 2 added: the page subscribes to both again and
  // gets a backfill from tick 40 (channel 0 already holds those ticks), then the live frames
  addFrame(buffers, [0], frame({ first: 0, channels: [{ v: ramp(20, 0) }] }), PERIOD_NS);
  addFrame(buffers, [0, 2], frame({ first: 40, backfill: true, channels: [{ v: ramp(10, 1000) }, { v: ramp(10, 0.5) }] }), PERIOD_NS);
  addFrame(buffers, [0, 2], frame({ first: 80, channels: [{ v: ramp(10, 20) }, { v: ramp(10, 10.5) }] }), PERIOD_NS);
  assert.deepEqual(buffers.get(0).v, ramp(30, 0), 'channel 0: its ticks once, its first values');

  const rows = commonRows(buffers, [0, 2], 0, 1, PERIOD_S);
  assert.deepEqual(rows.map((r) => r.tick), ramp(20, 40, 4), 'from tick 40, where channel 2 starts');
  assert.deepEqual(rows.map((r) => r.values), ramp(20, 0).map((i) => [10 + i, 0.5 + i]));
  assert.deepEqual(commonRows(buffers, [2, 0], 84 * PERIOD_S, 100 * PERIOD_S, PERIOD_S),
    [84, 88, 92, 96, 100].map((tick, i) => ({ tick, values: [11.5 + i, 21 + i] })),
    'both bounds of the range included, values in the channels\' order');
  assert.equal(commonRows(buffers, [0], 0, 1, PERIOD_S).length, 30, 'one channel: all of its ticks');
  assert.deepEqual(commonRows(buffers, [0, 9], 0, 1, PERIOD_S), [], 'a channel without samples: no rows');
  assert.equal(toCsv(['a', 'b'], commonRows(buffers, [0, 2], 88 * PERIOD_S, 92 * PERIOD_S, PERIOD_S), PERIOD_NS),
    'time_s,tick,a,b\n0.022000000000000002,88,22,12.5\n0.023000000000000003,92,23,13.5\n');
});
