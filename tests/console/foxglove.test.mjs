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
import { fileURLToPath } from 'node:url';
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

// The lidar's point clouds live (docs/sensors.md "Lidar", docs/console.md "Foxglove WebSocket"):
// /lidar/roof advertised with foxglove.PointCloud's schema; each cloud decodes with it, holds
// x, y, z, intensity float32 points in the lidar's frame within the VLP-16's 100 m, and has as
// many points as sensor.lidar.roof.returns said that revolution returned. A run that does not
// record: the recorder's ring is full from the start, the live path has its own buffers.
test('a Foxglove client sees the lidar\'s point clouds live', async () => {
  const overlay = fileURLToPath(new URL('../../hil_rigs/ravon/perception.pbtxt', import.meta.url));
  const run = startHilsim(['run', '--rig', 'ravon', '--overlay', overlay,
    '--no-rt', '--duration', '30s', '--no-record', '-q']);
  try {
    const { url } = await run.ready;
    const { client, got } = connect(url.replace('http:', 'ws:') + 'ws', 'foxglove.websocket.v1');
    await until(() => got.channels.length > 0);
    const cloudChannel = got.channels.find((c) => c.topic === '/lidar/roof');
    assert.ok(cloudChannel, `/lidar/roof in ${got.channels.map((c) => c.topic)}`);
    assert.equal(cloudChannel.schemaName, 'foxglove.PointCloud');
    const cloudType = protobuf.Root.fromDescriptor(Buffer.from(cloudChannel.schema, 'base64'))
      .lookupType('foxglove.PointCloud');
    const lidarChannel = got.channels.find((c) => c.topic.startsWith('/sensor/lidar/roof'));
    assert.ok(lidarChannel, `the lidar's channels in ${got.channels.map((c) => c.topic)}`);
    const lidarType = protobuf.Root.fromDescriptor(Buffer.from(lidarChannel.schema, 'base64'))
      .lookupType(lidarChannel.schemaName);
    const cloudSub = client.subscribe(cloudChannel.id);
    const lidarSub = client.subscribe(lidarChannel.id);
    const ofSub = (id) => got.messages.filter((m) => m.subscriptionId === id);
    await until(() => ofSub(cloudSub).length >= 5, 20000);
    client.unsubscribe(cloudSub);
    client.unsubscribe(lidarSub);
    const bytes = (m) => new Uint8Array(m.data.buffer, m.data.byteOffset, m.data.byteLength);
    const returns = new Set(ofSub(lidarSub).map((m) => Number(lidarType.decode(bytes(m)).returns)));
    let previous = 0n, matched = 0;
    for (const m of ofSub(cloudSub)) {
      assert.ok(m.timestamp > previous, 'one cloud a revolution, in order');
      previous = m.timestamp;
      const cloud = cloudType.toObject(cloudType.decode(bytes(m)), { defaults: true });
      assert.equal(cloud.frame_id, 'lidar_roof');
      assert.equal(cloud.point_stride, 16);
      assert.deepEqual(cloud.fields.map((f) => [f.name, f.offset, f.type]),
        [['x', 0, 7], ['y', 4, 7], ['z', 8, 7], ['intensity', 12, 7]], 'FLOAT32 fields');
      assert.equal(cloud.data.length % 16, 0);
      const points = cloud.data.length / 16;
      assert.ok(points > 1000, `${points} points`);
      const view = new DataView(cloud.data.buffer, cloud.data.byteOffset, cloud.data.byteLength);
      for (let i = 0; i < points; ++i) {
        const [x, y, z] = [0, 4, 8].map((o) => view.getFloat32(i * 16 + o, true));
        const range = Math.hypot(x, y, z);
        assert.ok(range > 0 && range <= 100.01, `point ${i}: ${range} m`);
      }
      if (returns.has(points)) ++matched;
    }
    // the channel is sampled at ≤ foxglove_rate_hz (100 Hz), each revolution lasts 100 ms
    assert.ok(matched >= ofSub(cloudSub).length - 1,
      `${matched} of ${ofSub(cloudSub).length} clouds have a returns value of ${[...returns]}`);
    console.log(`/lidar/roof: ${ofSub(cloudSub).length} clouds, ${matched} matching returns`);
    client.close();
  } finally {
    run.child.kill('SIGINT');
    await run.ended;
  }
});
