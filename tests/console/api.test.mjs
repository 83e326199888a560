// The automation API's calls over the console's WebSocket (docs/api.md), on a paused run stepped
// by the test (lock-step): info and channels, range-checked and all-or-nothing writes, a
// server-side wait_for that stops the loop at the first tick its condition holds, a capture at
// the tick rate with a condition trigger and pre-trigger, and a flood of good and bad calls that
// each get their answer while the run goes on.
//   HILSIM=build/release/tools/hilsim node --test tests/console/api.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { startHilsim, until } from './hilsim_run.mjs';

function client(url, token) {
  const ws = new WebSocket(url.replace('http:', 'ws:') + 'ws' + (token ? `?token=${token}` : ''),
    ['hilsim.console.v1']);
  const c = { ws, json: [], blocks: [] };
  ws.on('message', (d, binary) => {
    if (binary) c.blocks.push(Buffer.from(d));
    else c.json.push(JSON.parse(d.toString()));
  });
  ws.on('error', () => {});
  c.ready = new Promise((resolve) => ws.on('open', resolve));
  c.call = async (m, ms = 10000) => {
    ws.send(JSON.stringify(m));
    const end = Date.now() + ms;
    for (;;) {
      const r = c.json.find((x) => x.req === m.req && x.type !== 'capture_triggered' && x.type !== 'capture_end');
      if (r) return r;
      if (Date.now() > end) throw new Error(`no reply to ${JSON.stringify(m)}`);
      await new Promise((res) => setTimeout(res, 5));
    }
  };
  return c;
}

test('API calls on a paused run', { timeout: 120000 }, async () => {
  const run = startHilsim(['run', '--speed', 'max', '--paused', '--no-record', '-q',
    '--scenario', 'straight_accel_brake']);
  try {
    const { url, token } = await run.ready;
    const op = client(url, token);
    const viewer = client(url);
    await Promise.all([op.ready, viewer.ready]);

    const info = await viewer.call({ type: 'info', req: 1 });
    assert.equal(info.rig, 'ravon');
    assert.equal(info.paused, true);
    assert.equal(info.role, 'viewer');
    assert.equal(info.tick, 0);
    assert.equal(info.paced, false);  // --speed max: neither paced nor real-time
    assert.equal(info.realtime, false);
    const wheels = await viewer.call({ type: 'channels', req: 2, pattern: 'vehicle.wheel.*.speed' });
    assert.deepEqual(wheels.channels.map((c) => c.name),
      ['fl', 'fr', 'rl', 'rr'].map((w) => `vehicle.wheel.${w}.speed`));
    const brake = (await viewer.call({ type: 'channels', req: 3, pattern: 'vehicle.brake.command' })).channels[0];
    assert.deepEqual([brake.direction, brake.min, brake.max], ['input', 0, 1]);
    assert.match((await viewer.call({ type: 'channels', req: 4, pattern: 'nothing.*' })).message, /no channel matches/);

    // range checks; a write of several channels is all or nothing
    assert.match((await op.call({ type: 'write', req: 10, values: { 'vehicle.brake.command': 1.5 } })).message,
      /vehicle.brake.command = 1.5 - is outside its range \[0, 1\]/);
    const mixed = await op.call({ type: 'write', req: 11, values: { 'env.wind.speed': 5, 'vehicle.body.speed': 1 } });
    assert.match(mixed.message, /is an output/);
    assert.equal((await viewer.call({ type: 'read', req: 12, channels: ['env.wind.speed'] })).values['env.wind.speed'], 0);
    // a command in a paused run runs the tick it is applied at
    const wrote = await op.call({ type: 'write', req: 13, values: { 'env.wind.speed': 2 } });
    assert.equal(wrote.type, 'ack');
    assert.equal(wrote.tick, 0);

    // wait_for, stepped: the loop stops right after the first tick the condition holds at
    const waited = await op.call({ type: 'wait_for', req: 20, condition: 'vehicle.body.forward_speed >= 0.5', timeout_s: 5, step: true });
    assert.equal(waited.type, 'wait_for', JSON.stringify(waited));
    assert.ok(waited.value >= 0.5);
    const now = await viewer.call({ type: 'read', req: 21, channels: ['vehicle.body.forward_speed'] });
    assert.equal(now.tick, waited.tick, 'the loop waits right after it');
    assert.equal(now.values['vehicle.body.forward_speed'], waited.value);
    // GET /api/snapshot (docs/console.md): the same tick, its simulated time, values by name
    const snapResponse = await fetch(url + 'api/snapshot');
    assert.equal(snapResponse.status, 200);
    const snap = await snapResponse.json();
    assert.deepEqual(Object.keys(snap), ['tick', 'sim_time_s', 'values']);
    assert.equal(snap.tick, now.tick);
    const periodNs = viewer.json.find((m) => m.type === 'server_info').period_ns;
    assert.ok(Math.abs(snap.sim_time_s - now.tick * periodNs * 1e-9) < 1e-9, `sim_time_s ${snap.sim_time_s}`);
    assert.deepEqual(Object.keys(snap.values), viewer.json.find((m) => m.type === 'channels').channels.map((c) => c.name));
    assert.equal(snap.values['vehicle.body.forward_speed'], waited.value);
    const before = await op.call({ type: 'capture', req: 22, id: 9, channels: ['vehicle.body.forward_speed'], ticks: 1 });
    assert.equal(before.tick, waited.tick + 1);
    await op.call({ type: 'step', req: 23, ticks: 1 });
    await until(() => op.json.some((m) => m.type === 'capture_end' && m.id === 9));
    const speedBlock = op.blocks.at(-1);
    assert.equal(speedBlock.readBigInt64LE(8), BigInt(waited.tick + 1));
    assert.ok(speedBlock.readDoubleLE(32) >= 0.5);
    // the tick before held below: that is where it became true
    const timedOut = await op.call({ type: 'wait_for', req: 24, condition: 'vehicle.body.forward_speed > 50', timeout_s: 0.25, step: true });
    assert.match(timedOut.message, /vehicle.body.forward_speed > 50: not within 0.25 s \(ticks \d+\.\.\d+\); the last value/);
    assert.match((await op.call({ type: 'wait_for', req: 25, condition: 'speed is high' })).message, /no comparison/);
    assert.match((await viewer.call({ type: 'wait_for', req: 26, condition: 'x.y > 1', step: true })).message, /no channel x.y/);
    assert.match((await viewer.call({ type: 'wait_for', req: 27, condition: 'vehicle.body.speed > 100', step: true })).message, /operator token/);

    // a capture at the tick rate, triggered on a rising edge with 100 ticks before it
    const cap = await op.call({ type: 'capture', req: 30, id: 7, channels: ['vehicle.body.forward_speed', 'vehicle.wheel.*.speed'],
      start: { when: 'vehicle.body.forward_speed > 0.8' }, pre_trigger_ticks: 100, ticks: 400 });
    assert.equal(cap.type, 'capture', JSON.stringify(cap));
    assert.equal(cap.names.length, 5);
    op.blocks.length = 0;
    await op.call({ type: 'step', req: 31, seconds: 2 });
    await until(() => op.json.some((m) => m.type === 'capture_end' && m.id === 7));
    const trig = op.json.find((m) => m.type === 'capture_triggered' && m.id === 7);
    const end = op.json.find((m) => m.type === 'capture_end' && m.id === 7);
    assert.equal(end.reason, 'duration');
    assert.equal(end.samples, 500);
    assert.equal(end.lost, 0);
    assert.equal(end.first_tick, trig.trigger_tick - 100);
    assert.equal(end.last_tick, trig.trigger_tick + 399);
    const ticks = [];
    const speed = [];
    for (const b of op.blocks.filter((x) => x[0] === 2 && x.readUInt16LE(2) === 7)) {
      const first = Number(b.readBigInt64LE(8)), n = b.readUInt16LE(20);
      assert.equal(b.readUInt16LE(22), 5);
      for (let i = 0; i < n; i++) {
        ticks.push(first + i);
        speed.push(b.readDoubleLE(32 + 8 * i));
      }
    }
    assert.equal(ticks.length, 500);
    assert.ok(ticks.every((t, i) => i === 0 || t === ticks[i - 1] + 1), 'every tick');
    assert.ok(speed[99] <= 0.8 && speed[100] > 0.8, `the edge at the trigger: ${speed[99]}, ${speed[100]}`);
    assert.match((await op.call({ type: 'capture', req: 32, id: 8, channels: ['x'], start: { when: 'a >' } })).message,
      /start.when/);
    assert.match((await op.call({ type: 'capture', req: 33, id: 8, channels: ['vehicle.body.speed'], start: { tick: 1 } })).message,
      /the start tick 1 has passed/);
    assert.match((await op.call({ type: 'capture_stop', req: 34, id: 99 })).message, /no capture 99/);

    // a flood: 3000 calls without waiting, a third of them bad; each answered, the bad counted
    const status0 = viewer.json.filter((m) => m.type === 'status').at(-1).console.bad_messages;
    const bad = [{ type: 'nope' }, { type: 'read', channels: 'x' }, { type: 'write', values: { 'vehicle.body.speed': 1 } },
      { type: 'wait_for', condition: 7 }, { type: 'capture', id: 0, channels: [] }, { type: 'step', ticks: -1 }];
    const flood = client(url, token);
    await flood.ready;
    await op.call({ type: 'unlock', req: 39 });
    const t0 = Date.now();
    for (let i = 0; i < 3000; i++) {
      const m = i % 3 === 2 ? { ...bad[i % bad.length] } : { type: 'read', channels: ['vehicle.body.*'] };
      m.req = 1000 + i;
      flood.ws.send(JSON.stringify(m));
    }
    await until(() => flood.json.filter((m) => m.req >= 1000).length === 3000, 30000);
    const floodMs = Date.now() - t0;
    const replies = flood.json.filter((m) => m.req >= 1000);
    assert.equal(replies.filter((m) => m.type === 'read').length, 2000);
    assert.equal(replies.filter((m) => m.type === 'error').length, 1000);
    await op.call({ type: 'step', req: 40, ticks: 400 });
    await until(() => viewer.json.filter((m) => m.type === 'status').at(-1).console.bad_messages >= status0 + 1000);
    const after = await viewer.call({ type: 'info', req: 41 });
    assert.ok(after.tick > end.last_tick, 'the run went on');
    console.log(`flood: 3000 calls answered in ${floodMs} ms`);
    op.ws.close();
    flood.ws.send(JSON.stringify({ type: 'stop', req: 42 }));
    const exit = await run.ended;
    assert.equal(exit.code, 0, exit.err);
  } finally {
    run.child.kill('SIGKILL');
  }
});
