// panels.js, the plots' pure parts (docs/console.md "Plots"): the legend leaves out the dotted
// prefix a panel's channels share, and a channel at rest gets a readable y range.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commonPrefix, yRange } from '../src/panels.js';

test('the legend\'s names: without the dotted prefix the panel\'s channels share', () => {
  assert.equal(commonPrefix(['vehicle.wheel.fl.speed', 'vehicle.wheel.fl.speed_ref', 'vehicle.wheel.rr.speed']), 'vehicle.wheel.');
  assert.equal(commonPrefix(['vehicle.battery.voltage', 'vehicle.battery.soc']), 'vehicle.battery.');
  assert.equal(commonPrefix(['vehicle.wheel.fl.speed', 'vehicle.wheel.fl.slip']), 'vehicle.wheel.fl.');
  assert.equal(commonPrefix(['vehicle.body.speed', 'env.wind.speed']), '', 'nothing shared');
  assert.equal(commonPrefix(['vehicle.speed', 'vehicle.speedometer']), 'vehicle.', 'whole components only');
  assert.equal(commonPrefix(['vehicle.body.forward_speed']), '', 'one channel keeps its whole name');
  assert.equal(commonPrefix(['a.b', 'a.b']), 'a.', 'a name is never cut to nothing');
});

test('y range: 10 % room; a constant gets ±1 around it, not 0..100', () => {
  assert.deepEqual(yRange(null, 0, 10), [-1, 11]);
  assert.deepEqual(yRange(null, 0, 0), [-1, 1]);
  assert.deepEqual(yRange(null, 48.2, 48.2), [47.2, 49.2]);
  assert.deepEqual(yRange(null, null, null), [0, 1], 'no data yet');
});
