// operator.js, its DOM-free parts: the fault catalogue's requests (docs/api.md "fault", as
// config/fault.proto's JSON) and the limit colours of channel values (docs/console.md,
// Operator tab: green inside, amber within 10 % of a limit, red outside).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAULT_KINDS, faultFor, limitState } from '../src/operator.js';

test('a message fault names its bus and message and stops after its duration', () => {
  assert.deepEqual(faultFor('drop frames', 'ecu/HIL_Imu', 0, 0.5), {
    name: 'drop frames ecu/HIL_Imu', stop: { duration_s: 0.5 },
    message: { bus: 'ecu', name: 'HIL_Imu', drop: {} } });
  assert.deepEqual(faultFor('corrupt the CRC', 'ecu/HIL_Imu', 0, 0).message, { bus: 'ecu', name: 'HIL_Imu', crc: { mode: 'random' } });
  assert.deepEqual(faultFor('freeze the alive counter', 'body/Status', 0, 0).message,
    { bus: 'body', name: 'Status', counter: { mode: 'freeze' } });
});

test('duration 0 means until cleared: no stop is sent', () => {
  const f = faultFor('send twice', 'ecu/HIL_Imu', 0, 0);
  assert.equal('stop' in f, false);
  assert.deepEqual(f.message, { bus: 'ecu', name: 'HIL_Imu', duplicate: {} });
});

test('bus and channel faults target their name', () => {
  assert.deepEqual(faultFor('silence the bus', 'ecu', 0, 2), { name: 'silence the bus ecu', stop: { duration_s: 2 }, bus: { name: 'ecu', silence: {} } });
  assert.deepEqual(faultFor('channel NaN', 'vehicle.body.speed', 0, 0), { name: 'channel NaN vehicle.body.speed', channel: { name: 'vehicle.body.speed', nan: {} } });
  assert.deepEqual(faultFor('channel stuck', 'driver.steer', 0, 0).channel, { name: 'driver.steer', stuck: {} });
});

test('the entered value is the fault\'s parameter; an empty one takes the default where there is one', () => {
  assert.deepEqual(faultFor('channel forced to (value)', 'driver.throttle', 0, 0).channel.force, { value: 0 }, 'forced to 0, not to a default');
  assert.deepEqual(faultFor('channel forced to (value)', 'driver.throttle', -2.5, 0).channel.force, { value: -2.5 });
  assert.deepEqual(faultFor('channel offset (value)', 'driver.throttle', 0.25, 0).channel.offset, { value: 0.25 });
  assert.deepEqual(faultFor('delay frames (ms)', 'ecu/HIL_Imu', 0, 0).message.delay, { ms: 50 });
  assert.deepEqual(faultFor('delay frames (ms)', 'ecu/HIL_Imu', 20, 0).message.delay, { ms: 20 });
  assert.deepEqual(faultFor('channel noise (sigma)', 'imu.ax', 0, 0).channel.noise, { sigma: 0.1 });
  assert.deepEqual(faultFor('channel noise (sigma)', 'imu.ax', 2, 0).channel.noise, { sigma: 2 });
});

test('fault names leave out the parameter\'s hint, so Clear finds the fault again', () => {
  assert.equal(faultFor('channel forced to (value)', 'driver.throttle', 1, 0).name, 'channel forced to driver.throttle');
  assert.equal(faultFor('delay frames (ms)', 'ecu/HIL_Imu', 1, 0).name, 'delay frames ecu/HIL_Imu');
  assert.equal(faultFor('channel noise (sigma)', 'imu.ax', 1, 0).name, 'channel noise imu.ax');
});

test('every kind of the catalogue makes one request with exactly one target', () => {
  const targets = { message: 'ecu/HIL_Imu', bus: 'ecu', node: 'body/ABS', channel: 'vehicle.body.speed' };
  const names = new Set();
  for (const [kind, { target }] of Object.entries(FAULT_KINDS)) {
    const f = faultFor(kind, targets[target], 1, 1);
    const key = target === 'node' ? 'bus' : target;  // a node's silence is a bus fault with its node
    assert.deepEqual(['message', 'bus', 'channel'].filter((k) => k in f), [key], kind);
    assert.equal(Object.keys(f[key]).filter((k) => !['bus', 'name', 'node'].includes(k)).length, 1, `${kind}: one operation`);
    names.add(f.name);
  }
  assert.equal(names.size, Object.keys(FAULT_KINDS).length, 'no two kinds on one target share a name');
});

test('a simulated node silenced, an E2E data id wrong (rest-bus simulation)', () => {
  assert.deepEqual(faultFor('silence a node', 'body/ABS', 0, 0),
    { name: 'silence a node body/ABS', bus: { name: 'body', node: 'ABS', silence: {} } });
  assert.deepEqual(faultFor('wrong E2E data id (value)', 'body/ABS_Status', 7, 2),
    { name: 'wrong E2E data id body/ABS_Status', stop: { duration_s: 2 },
      message: { bus: 'body', name: 'ABS_Status', data_id: { value: 7 } } });
  // only a message the rig sends with E2E can be protected with another data id
  const of = FAULT_KINDS['wrong E2E data id (value)'].of;
  assert.ok(of({ dir: 'tx', e2e: 'P11' }));
  assert.ok(!of({ dir: 'tx', e2e: null }));
  assert.ok(!of({ dir: 'rx', e2e: 'P05' }));
});

test('limits colour a value: inside, near (within 10 % of the span from a limit), outside', () => {
  const l = [0, 100];
  assert.equal(limitState(50, l), 'inside');
  assert.equal(limitState(10, l), 'inside');
  assert.equal(limitState(90, l), 'inside');
  assert.equal(limitState(9.99, l), 'near');
  assert.equal(limitState(90.01, l), 'near');
  assert.equal(limitState(0, l), 'near', 'on the limit: still in');
  assert.equal(limitState(100, l), 'near');
  assert.equal(limitState(-0.01, l), 'outside');
  assert.equal(limitState(100.01, l), 'outside');
  assert.equal(limitState(-5, [-10, -5]), 'near');
  assert.equal(limitState(-7.5, [-10, -5]), 'inside');
});

test('a NaN value (null in JSON) is outside any limit', () => {
  assert.equal(limitState(null, [0, 100]), 'outside');
  assert.equal(limitState(NaN, [0, 100]), 'outside');
  assert.equal(limitState(null, [-Infinity, Infinity]), 'outside');
});
