// driving.js: what the page sends of a gamepad (the first connected one, values clamped, a
// button's value or its pressed state) and how it shows the server's `drive` reply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeDrive, readGamepad } from '../src/driving.js';

test('the first connected gamepad, its axes clamped to −1..1 and its buttons to 0..1', () => {
  assert.equal(readGamepad(() => []), null);
  assert.equal(readGamepad(undefined), null);
  const pads = [null, { id: 'off', connected: false, axes: [1], buttons: [] },
    { id: 'Xbox', connected: true, axes: [-1.5, 0.25, NaN], buttons: [{ value: 0.5, pressed: true }, { pressed: true }, 1.2] }];
  assert.deepEqual(readGamepad(() => pads), { id: 'Xbox', axes: [-1, 0.25, 0], buttons: [0.5, 1, 1] });
  const many = { axes: new Array(100).fill(0), buttons: [] };
  assert.equal(readGamepad(() => [many]).axes.length, 64);  // the server takes at most 64
});

test('the reply as the operator reads it', () => {
  assert.equal(describeDrive({ mode: 'auto', values: {} }), 'AUTO');
  assert.equal(describeDrive({ mode: 'human', values: { 'driver.mode': 1, 'driver.steer': 0.41999, 'driver.throttle': 1 } }),
    'HUMAN · steer 0.42 · throttle 1');
});
