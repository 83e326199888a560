// csv.js: the page's CSV export and the triggered capture's CSV are byte for byte what
// `hilsim export` writes for the same ticks (docs/console.md): the header's names quoted as
// tools/session/csv.hpp's csv_field does, numbers as fmt's "{}" prints doubles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmtDouble, toCsv } from '../src/csv.js';

// fmt::format("{}", x) for each x, printed by the fmt hilsim links (Debian 12's libfmt-dev 9.1).
const FMT = [
  [0, '0'], [-0, '-0'], [1, '1'], [-1, '-1'], [0.1, '0.1'], [0.5, '0.5'], [100, '100'],
  [123.456, '123.456'], [-2.5e-3, '-0.0025'], [1e-4, '0.0001'], [0.00012345, '0.00012345'],
  [1e-5, '1e-05'], [1.25e-5, '1.25e-05'], [6.666666666666665e-8, '6.666666666666665e-08'],
  [3.0000000000000006e-11, '3.0000000000000006e-11'], [5e-324, '5e-324'],
  [1e15, '1000000000000000'], [9999999999999998, '9999999999999998'], [1e16, '1e+16'],
  [1.5e16, '1.5e+16'], [1.2345678901234567e19, '1.2345678901234567e+19'], [1e21, '1e+21'],
  [1e100, '1e+100'], [1.7976931348623157e308, '1.7976931348623157e+308'],
  [0.1 + 0.2, '0.30000000000000004'], [1 / 3, '0.3333333333333333'], [5.0005, '5.0005'],
  [299.99999999999994, '299.99999999999994'], [300, '300'], [1234567, '1234567'],
  [NaN, 'nan'], [Infinity, 'inf'], [-Infinity, '-inf'],
];

test('numbers are printed as hilsim export (fmt "{}") prints them', () => {
  for (const [x, text] of FMT) assert.equal(fmtDouble(x), text, `fmt::format("{}", ${x})`);
});

test('time_s is tick × period as the recorder computes it', () => {
  // static_cast<double>(tick * period_ns) * 1e-9, printed by fmt: from a 250 µs run
  const csv = toCsv(['x'], [0, 1, 4, 20002, 240000, 2400001].map((tick) => ({ tick, values: [0] })), 250000);
  assert.deepEqual(csv.trim().split('\n').slice(1).map((l) => l.split(',', 2).join(',')),
    ['0,0', '0.00025,1', '0.001,4', '5.000500000000001,20002', '60.00000000000001,240000',
      '600.00025,2400001']);
});

test('the header names every channel; names with commas, quotes or newlines are quoted', () => {
  const names = ['vehicle.body.speed', 'a,b', 'say "hi"', 'two\nlines', 'cr\r'];
  assert.equal(toCsv(names, [], 1e6), 'time_s,tick,vehicle.body.speed,"a,b","say ""hi""","two\nlines","cr\r"\n');
});

test('one row per tick, its values in the names\' order, every line ending in \\n', () => {
  const csv = toCsv(['a', 'b'], [{ tick: 4, values: [1.5, -0] }, { tick: 8, values: [NaN, 2e-5] }], 250000);
  assert.equal(csv, 'time_s,tick,a,b\n0.001,4,1.5,-0\n0.002,8,nan,2e-05\n');
});

test('no rows: the header alone', () => {
  assert.equal(toCsv([], [], 250000), 'time_s,tick\n');
});
