// channel_table.js, the channel browser's filter and values (docs/console.md "Channels"): a
// glob or a substring, and values as the page has always shown them (6 significant digits).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filterRegExp, formatValue } from '../src/channel_table.js';

test('the filter: a glob when it has * or ?, else any name containing the text', () => {
  const names = ['vehicle.wheel.fl.speed', 'vehicle.wheel.fl.speed_ref', 'vehicle.body.speed', 'env.wind.speed'];
  const shown = (f) => names.filter((n) => filterRegExp(f)?.test(n) ?? true);
  assert.deepEqual(shown('vehicle.wheel.*.speed'), ['vehicle.wheel.fl.speed']);
  assert.deepEqual(shown('body'), ['vehicle.body.speed']);
  assert.deepEqual(shown('  '), names, 'empty: all');
  assert.deepEqual(shown('*wheel.f?.speed*'), ['vehicle.wheel.fl.speed', 'vehicle.wheel.fl.speed_ref']);
  assert.deepEqual(shown('wheel.f?.speed'), [], 'a glob matches the whole name');
  assert.deepEqual(shown('(x'), [], 'regex characters are literal');
});

test('values: 6 significant digits, NaN for JSON\'s null', () => {
  assert.deepEqual([24.1, 0, 7.25, -1234567, null].map(formatValue), ['24.1000', '0.00000', '7.25000', '-1.23457e+6', 'NaN']);
});
