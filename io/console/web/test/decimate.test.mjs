// decimate.js: the plots' min/max per pixel column (docs/console.md "What the page shows",
// Plots): a one-tick spike stays visible in a long window, columns without samples are gaps,
// and only the shown range is drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { columns, columnTimes, lowerBound } from '../src/decimate.js';

const PERIOD_S = 250e-6;  // 4 kHz ticks
const STRIDE = 4;         // one console sample per 4 ticks (1 kHz)

/// A buffer as samples.js keeps it: a sample per STRIDE ticks over [0, seconds], value, min
/// and max from `at(tick)` (one number: all three; or [v, lo, hi]).
function buffer(seconds, at = () => 0) {
  const b = { tick: [], v: [], lo: [], hi: [] };
  for (let tick = 0; tick * PERIOD_S <= seconds; tick += STRIDE) {
    const x = at(tick);
    const [v, lo, hi] = Array.isArray(x) ? x : [x, x, x];
    b.tick.push(tick); b.v.push(v); b.lo.push(lo); b.hi.push(hi);
  }
  return b;
}

test('lowerBound finds the first sample at or after a tick', () => {
  const ticks = [0, 4, 8, 12];
  assert.equal(lowerBound(ticks, 0), 0);
  assert.equal(lowerBound(ticks, 5), 2, 'between samples: the next one');
  assert.equal(lowerBound(ticks, 8), 2, 'on a sample: that one');
  assert.equal(lowerBound(ticks, -3), 0);
  assert.equal(lowerBound(ticks, 13), 4, 'past the end: the length');
  assert.equal(lowerBound([], 7), 0);
});

test('a one-tick spike between samples survives 60 s in 300 columns', () => {
  // the spike of 300 N at tick 20002 (5.0005 s) lies between the samples of ticks 20000 and
  // 20004: the sample at 20004 carries it as the max of its ticks, its value misses it
  const b = buffer(60, (tick) => (tick === 20004 ? [0, 0, 300] : 0));
  const { v, lo, hi } = columns(b, 0, 60, 300, PERIOD_S);
  assert.equal(v.length, 300);
  const spiked = hi.flatMap((x, c) => (x === 300 ? [c] : []));
  assert.deepEqual(spiked, [Math.floor(5.001 / (60 / 300))], 'exactly the column of 5.001 s');
  assert.ok(v.every((x) => x === 0), 'the value misses the spike, as the recording does');
  assert.ok(lo.every((x) => x === 0));
});

test('a column draws the min and max of all its samples and its last value', () => {
  // 1 s in 2 columns: the first holds ticks 0..1996, the value ramps, a dip sits in the middle
  const b = buffer(1, (tick) => (tick === 1000 ? [tick, -50, tick] : [tick, tick - 1, tick + 1]));
  const { v, lo, hi } = columns(b, 0, 1, 2, PERIOD_S);
  assert.equal(lo[0], -50, 'the dip is the first column\'s min');
  assert.equal(hi[0], 1996 + 1);
  assert.equal(v[0], 1996, 'the value of the column\'s last sample');
  assert.equal(lo[1], 2000 - 1);
  assert.equal(v[1], 4000, 'the sample at t1 is in the last column');
});

test('a negative one-tick spike stays visible too', () => {
  const b = buffer(600, (tick) => (tick === 1_200_000 ? [1, -1e6, 1] : 1));
  const { lo } = columns(b, 0, 600, 1000, PERIOD_S);
  assert.equal(Math.min(...lo), -1e6, 'in a 10 min window of 1000 columns');
});

test('a NaN tick is not hidden by the finite samples of its column', () => {
  // tick 8200 (2.05 s) is in the middle of the column of 2.0..2.1 s
  const b = buffer(10, (tick) => (tick === 8200 ? [NaN, NaN, NaN] : 1));
  const { lo, hi } = columns(b, 0, 10, 100, PERIOD_S);
  const c = Math.floor(2.05 / 0.1);
  assert.ok(Number.isNaN(lo[c]) && Number.isNaN(hi[c]), 'the column of the NaN tick');
  assert.equal(lo.filter((x) => Number.isNaN(x)).length, 1, 'no other column');
});

test('columns without samples are gaps (null), not zeros', () => {
  const b = buffer(10, () => 5);  // 10 s of data in a 60 s window
  const { v, lo, hi } = columns(b, 0, 60, 60, PERIOD_S);
  assert.ok(v.slice(0, 10).every((x) => x === 5));
  assert.ok(v.slice(11).every((x) => x === null), 'after 10 s: nothing drawn');
  assert.ok(lo.slice(11).every((x) => x === null) && hi.slice(11).every((x) => x === null));
});

test('only the shown range is drawn (zoom, pan, pause)', () => {
  const b = buffer(100, (tick) => tick * PERIOD_S);  // the value is the sample's time
  const { v, lo } = columns(b, 40, 50, 10, PERIOD_S);
  assert.ok(v.every((x) => x !== null && x >= 40 && x <= 50), `values ${v}`);
  assert.equal(lo[0], 40, 'the first column starts at t0');
  assert.equal(v[9], 50, 'the last column ends at t1');
});

test('no samples yet or an empty range: all gaps, still n columns', () => {
  for (const [b, t0, t1] of [[undefined, 0, 60], [buffer(10), 5, 5], [buffer(10), 6, 5]]) {
    const { v, lo, hi } = columns(b, t0, t1, 50, PERIOD_S);
    assert.equal(v.length, 50);
    assert.ok([...v, ...lo, ...hi].every((x) => x === null));
  }
});

test('columnTimes puts each column at its centre', () => {
  const t = columnTimes(10, 70, 60);
  assert.equal(t.length, 60);
  assert.equal(t[0], 10.5);
  assert.equal(t[59], 69.5);
  assert.ok(t.every((x, i) => i === 0 || x > t[i - 1]), 'increasing');
});
