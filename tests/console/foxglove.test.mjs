// The Foxglove WebSocket endpoint with the reference client (@foxglove/ws-protocol), over
// both subprotocols: serverInfo names the run, the advertisement carries every telemetry
// group and /events with protobuf schemas, and every message received decodes with protobufjs
// from the advertised FileDescriptorSet, with its log time on the tick grid.
//   HILSIM=build/release/tools/hilsim node --test tests/console/foxglove.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import foxglove from '@foxglove/ws-protocol';
import protobuf from 'protobufjs';
import 'protobufjs/ext/descriptor/index.js';
import WebSocket from 'ws';
import { startHilsim, until } from './hilsim_run.mjs';

function connect(url, subprotocol) {
  const ws = new WebSocket(url, [subprotocol]);
  const client = new foxglove.FoxgloveClient({ ws });
  const got = { serverInfo: null, channels: [], messages: [], statuses: [] };
  client.on('serverInfo', (s) => (got.serverInfo = s));
  client.on('advertise', (c) => got.channels.push(...c));
  client.on('status', (s) => got.statuses.push(s));
  client.on('message', (m) => got.messages.push(m));
  return { ws, client, got };
}


test('a Foxglove client sees the live rig with the recording\'s schemas', async () => {
  const run = startHilsim(['run', '--no-rt', '--duration', '40s', '--no-record', '-q']);
  try {
    const { url } = await run.ready;
    for (const [subprotocol, path] of [['foxglove.websocket.v1', 'ws'], ['foxglove.sdk.v1', '']]) {
      const { ws, client, got } = connect(url.replace('http:', 'ws:') + path, subprotocol);
      await until(() => got.serverInfo && got.channels.length > 0);
      assert.equal(ws.protocol, subprotocol);
      assert.match(got.serverInfo.sessionId, /\S/, 'the run id is the session');
      assert.deepEqual(got.serverInfo.capabilities, [], 'read-only');
      const topics = got.channels.map((c) => c.topic);
      for (const t of ['/vehicle', '/events']) assert.ok(topics.some((x) => x.startsWith(t)), `${t} in ${topics}`);
      const types = new Map();
      for (const c of got.channels) {
        assert.equal(c.encoding, 'protobuf');
        assert.equal(c.schemaEncoding, 'protobuf');
        const root = protobuf.Root.fromDescriptor(Buffer.from(c.schema, 'base64'));
        types.set(c.id, root.lookupType(c.schemaName));
      }
      const subscriptions = new Map(got.channels.map((c) => [client.subscribe(c.id), c]));
      await until(() => new Set(got.messages.map((m) => m.subscriptionId)).size >= got.channels.length - 1);
      const last = new Map();
      for (const m of got.messages) {
        const channel = subscriptions.get(m.subscriptionId);
        assert.ok(channel, `message for subscription ${m.subscriptionId}`);
        const bytes = new Uint8Array(m.data.buffer, m.data.byteOffset, m.data.byteLength);
        const decoded = types.get(channel.id).decode(bytes);
        assert.ok(Object.keys(decoded.toJSON()).length > 0 || channel.topic === '/events', channel.topic);
        const previous = last.get(channel.id) ?? 0n;
        assert.ok(m.timestamp >= previous, `${channel.topic}: log time goes forward`);
        last.set(channel.id, m.timestamp);
      }
      // unsubscribe stops the data
      for (const id of subscriptions.keys()) client.unsubscribe(id);
      await new Promise((r) => setTimeout(r, 300));
      const count = got.messages.length;
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(got.messages.length, count, 'no data after unsubscribe');
      console.log(`${subprotocol}: ${got.channels.length} channels, ${count} messages decoded`);
      client.close();
    }
  } finally {
    run.child.kill('SIGINT');
    await run.ended;
  }
});
