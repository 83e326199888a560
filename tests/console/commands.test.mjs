// Operator commands over the console's WebSocket (docs/api.md): a viewer is refused, an
// operator's write, fault, clear and release are each acknowledged with the tick they were
// applied at, every client's event log shows them, bad ones get a clear error, and the run
// they steered replays identically from its run directory.
//   HILSIM=build/release/tools/hilsim node --test tests/console/commands.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { HILSIM, startHilsim, until } from './hilsim_run.mjs';

function client(url, token) {
  const ws = new WebSocket(url.replace('http:', 'ws:') + 'ws' + (token ? `?token=${token}` : ''),
    ['hilsim.console.v1']);
  const c = { ws, json: [] };
  ws.on('message', (d, binary) => !binary && c.json.push(JSON.parse(d.toString())));
  ws.on('error', () => {});
  c.ready = new Promise((resolve) => ws.on('open', resolve));
  c.reply = async (req) => {
    const end = Date.now() + 10000;
    for (;;) {
      const m = c.json.find((x) => x.req === req && (x.type === 'ack' || x.type === 'error'));
      if (m) return m;
      if (Date.now() > end) throw new Error(`no reply to ${req}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  c.send = (m) => ws.send(JSON.stringify(m));
  return c;
}

test('operator commands: acked with their tick, in every event log, replayed', { timeout: 120000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hilsim-commands-'));
  const run = startHilsim(['run', '--no-rt', '--duration', '30s', '--record', join(dir, 'run'), '-q']);
  try {
    const { url, token } = await run.ready;
    const viewer = client(url);
    const op = client(url, token);
    await Promise.all([viewer.ready, op.ready]);
    await until(() => op.json.some((m) => m.type === 'channels'));
    const info = op.json.find((m) => m.type === 'server_info');
    assert.deepEqual(info.capabilities, ['stop', 'write', 'release', 'fault', 'clear_fault', 'marker',
      'uds', 'drive']);
    const names = op.json.find((m) => m.type === 'channels').channels.map((c) => c.name);
    // --no-rt: paced by the wall clock, not real-time (what the manifest says too)
    op.send({ type: 'info', req: 99 });
    await until(() => op.json.some((m) => m.type === 'info'));
    const live = op.json.find((m) => m.type === 'info');
    assert.equal(live.paced, true);
    assert.equal(live.realtime, false);
    assert.match(live.realtime_summary, /^not real-time \(/);

    viewer.send({ type: 'write', req: 1, values: { 'env.wind.speed': 3 } });
    assert.match((await viewer.reply(1)).message, /operator token/);

    op.send({ type: 'write', req: 2, values: { 'env.wind.speed': 6.5 } });
    const write = await op.reply(2);
    assert.equal(write.type, 'ack');
    assert.equal(write.applied, true);
    assert.ok(write.tick > 0);
    const wind = names.indexOf('env.wind.speed');
    await until(() => op.json.some((m) => m.type === 'values' && m.tick >= write.tick && m.values[wind] === 6.5));

    // read: one tick's values, names or patterns, for viewers too
    viewer.send({ type: 'read', req: 20, channels: ['env.wind.speed', 'vehicle.wheel.*.speed'] });
    await until(() => viewer.json.some((m) => m.req === 20));
    const read = viewer.json.find((m) => m.req === 20);
    assert.equal(read.type, 'read');
    assert.ok(read.tick >= write.tick);
    assert.equal(read.values['env.wind.speed'], 6.5);
    assert.equal(Object.keys(read.values).length, 5);
    viewer.send({ type: 'read', req: 21, channels: ['no.such.*'] });
    await until(() => viewer.json.some((m) => m.req === 21));
    assert.match(viewer.json.find((m) => m.req === 21).message, /no channel matches/);

    op.send({ type: 'marker', req: 22, text: 'gust test starts' });
    const marker = await op.reply(22);
    assert.equal(marker.applied, true);

    op.send({ type: 'write', req: 3, values: { 'vehicle.body.speed': 1 } });
    assert.match((await op.reply(3)).message, /is an output/);
    op.send({ type: 'write', req: 4, values: { 'env.wind.sped': 1 } });
    assert.match((await op.reply(4)).message, /no channel env.wind.sped/);
    op.send({ type: 'fault', req: 5, fault: { name: 'x', message: { bus: 'can0', name: 'HIL_Imu', drop: {} } } });
    assert.match((await op.reply(5)).message, /message.bus: "can0" is not a CAN bus of the rig; expected one of ecu/);
    op.send({ type: 'fault', req: 6, fault: { name: 'x', colour: 'red' } });
    assert.match((await op.reply(6)).message, /not a fault/);

    op.send({ type: 'fault', req: 7, fault: { name: 'api drop', stop: { duration_s: 0.2 },
      message: { bus: 'ecu', name: 'HIL_WheelSpeeds', drop: {} } } });
    const fault = await op.reply(7);
    assert.equal(fault.type, 'ack', JSON.stringify(fault));
    await until(() => viewer.json.some((m) => m.type === 'event' && /fault 'api drop' off/.test(m.text)));
    op.send({ type: 'clear_fault', req: 8, name: 'api drop' });
    assert.equal((await op.reply(8)).applied, false, 'it had stopped already: no effect');
    op.send({ type: 'release', req: 9, channels: ['env.wind.speed'] });
    assert.equal((await op.reply(9)).applied, true);

    // one operator at a time: a second one waits for the lock, which every client sees
    const op2 = client(url, token);
    await op2.ready;
    op2.send({ type: 'write', req: 30, values: { 'env.wind.speed': 1 } });
    assert.match((await op2.reply(30)).message, /operator lock is held by 127\.0\.0\.1:\d+ \(since tick \d+\)/);
    await until(() => viewer.json.some((m) => m.type === 'status' && m.operator_lock !== null));
    op.send({ type: 'unlock', req: 31 });
    await op.reply(31);
    op2.send({ type: 'write', req: 32, values: { 'env.wind.speed': 2 } });
    assert.equal((await op2.reply(32)).type, 'ack');
    op2.send({ type: 'release', req: 33, channels: ['env.wind.speed'] });
    await op2.reply(33);
    op2.send({ type: 'unlock', req: 34 });
    await op2.reply(34);

    // the viewer saw what the operator did, with the ticks
    const events = viewer.json.filter((m) => m.type === 'event' && m.kind === 'operator');
    assert.ok(events.some((e) => e.tick === write.tick && /write env.wind.speed 6.5/.test(e.text)),
      JSON.stringify(events));
    assert.ok(events.some((e) => e.tick === fault.tick && /fault name: "api drop"/.test(e.text)));

    op.send({ type: 'stop', req: 10 });
    const end = await run.ended;
    assert.equal(end.code, 0, end.err);
    const log = readFileSync(join(dir, 'run', 'commands.log'), 'utf8').trim().split('\n');
    assert.equal(log.length, 6, log.join('\n'));  // write, marker, fault, release, op2's write and release (not the clear)
    assert.equal(log[0], `${write.tick} write env.wind.speed 6.5`);
    assert.equal(log[1], `${marker.tick} marker gust test starts`);
    const replay = execFileSync(HILSIM, ['replay', join(dir, 'run'), '--console', 'off', '-q']).toString();
    assert.match(replay, /^identical/m);
  } finally {
    run.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
