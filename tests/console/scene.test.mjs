// The run's 3D scene as data (docs/console.md "3D scene and Foxglove 3D"), against a live
// `hilsim run` that records: the page's `scene` message after `channels` and `course`; Foxglove's
// own client subscribed to every scene topic decodes each message with the advertised schema
// (protobufjs from the FileDescriptorSet) and each validates against @foxglove/schemas' JSON
// schema; /tf's body transform equals the pose channels of its tick, live and in
// telemetry.mcap, which @mcap/core opens with the same topics.
//   HILSIM=build/release/tools/hilsim node --test tests/console/scene.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import foxglove from '@foxglove/ws-protocol';
import * as foxgloveSchemas from '@foxglove/schemas/jsonschema.js';
import { McapIndexedReader } from '@mcap/core';
import zstd from '@foxglove/wasm-zstd';
import Ajv from 'ajv';
import protobuf from 'protobufjs';
import 'protobufjs/ext/descriptor/index.js';
import WebSocket from 'ws';
import { startHilsim, until } from './hilsim_run.mjs';

const SCENE_TOPICS = new Map([
  ['/tf', 'foxglove.FrameTransform'],
  ['/scene/world', 'foxglove.SceneUpdate'],
  ['/scene/vehicle', 'foxglove.SceneUpdate'],
  ['/scene/path', 'foxglove.PosesInFrame'],
  ['/scene/forces', 'foxglove.SceneUpdate'],
  ['/scene/trail', 'foxglove.PosesInFrame'],
]);
const POSE_TOPICS = ['/vehicle/body', '/vehicle/body/position'];

const ajv = new Ajv({ strict: false, allErrors: true });
const validators = new Map();
function validator(schemaName) {
  if (!validators.has(schemaName)) {
    validators.set(schemaName, ajv.compile(foxgloveSchemas[schemaName.replace('foxglove.', '')]));
  }
  return validators.get(schemaName);
}

/// A protobuf message type from an advertised (or recorded) FileDescriptorSet.
function typeFrom(schema, name) {
  return protobuf.Root.fromDescriptor(protobuf.descriptor.FileDescriptorSet.decode(schema)).lookupType(name);
}

/// The decoded message as Foxglove's JSON schemas spell it: google.protobuf.Timestamp and
/// Duration's {seconds, nanos} as {sec, nsec}.
function asFoxgloveJson(value) {
  if (Array.isArray(value)) return value.map(asFoxgloveJson);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (keys.length === 2 && keys.includes('seconds') && keys.includes('nanos')) {
    return { sec: value.seconds, nsec: value.nanos };
  }
  return Object.fromEntries(keys.map((k) => [k, asFoxgloveJson(value[k])]));
}

function decode(type, bytes) {
  return type.toObject(type.decode(bytes), { longs: Number, enums: Number, defaults: true });
}

/// q = qz(yaw)·qy(pitch)·qx(roll), as {x, y, z, w}.
function attitude(roll, pitch, yaw) {
  const [cr, sr] = [Math.cos(roll / 2), Math.sin(roll / 2)];
  const [cp, sp] = [Math.cos(pitch / 2), Math.sin(pitch / 2)];
  const [cy, sy] = [Math.cos(yaw / 2), Math.sin(yaw / 2)];
  return {
    x: cy * cp * sr - sy * sp * cr,
    y: cy * sp * cr + sy * cp * sr,
    z: sy * cp * cr - cy * sp * sr,
    w: cy * cp * cr + sy * sp * sr,
  };
}

/// Checks /tf body transforms against the pose channels at the same log time; returns how many
/// were compared. `bodies`: log time → FrameTransform; `poses`: log time → {x, y, z, roll, pitch, yaw}.
function expectBodyEqualsPose(bodies, poses, where) {
  let compared = 0;
  for (const [time, tf] of bodies) {
    const p = poses.get(time);
    if (!p || p.x === undefined || p.roll === undefined) continue;
    assert.deepEqual([tf.translation.x, tf.translation.y, tf.translation.z], [p.x, p.y, p.z],
      `${where}: translation at ${time}`);
    const q = attitude(p.roll, p.pitch, p.yaw);
    for (const k of ['x', 'y', 'z', 'w']) {
      assert.ok(Math.abs(tf.rotation[k] - q[k]) < 1e-12, `${where}: rotation.${k} at ${time}: ${tf.rotation[k]} vs ${q[k]}`);
    }
    ++compared;
  }
  return compared;
}

function notePose(poses, topic, time, decoded) {
  const p = poses.get(time) ?? {};
  if (topic === '/vehicle/body/position') Object.assign(p, { x: decoded.x, y: decoded.y, z: decoded.z });
  else Object.assign(p, { roll: decoded.roll, pitch: decoded.pitch, yaw: decoded.yaw });
  poses.set(time, p);
}

/// Checks the content every scene topic must have.
function expectSceneContent(topic, m) {
  if (topic === '/tf') {
    assert.ok(['world', 'body'].includes(m.parent_frame_id) || m.parent_frame_id.startsWith('hub_'), m.parent_frame_id);
  } else if (topic === '/scene/world') {
    const terrain = m.entities.find((e) => e.id === 'terrain');
    assert.equal(terrain.frame_id, 'world');
    const mesh = terrain.triangles[0];
    assert.ok(mesh.points.length > 1000 && mesh.points.length <= 65536, `${mesh.points.length} vertices`);
    assert.equal(mesh.colors.length, mesh.points.length);
    assert.equal(mesh.indices.length % 3, 0);
    assert.ok(mesh.indices.every((i) => i < mesh.points.length));
    assert.ok(m.entities.find((e) => e.id === 'cones').cylinders.length > 10, 'the lane change\'s cones');
    assert.ok(m.entities.find((e) => e.id === 'path').lines[0].points.length > 10);
  } else if (topic === '/scene/vehicle') {
    assert.deepEqual(m.entities.map((e) => e.frame_id).sort(), ['body', 'wheel_fl', 'wheel_fr', 'wheel_rl', 'wheel_rr']);
    assert.ok(m.entities.every((e) => e.frame_locked));
  } else if (topic === '/scene/forces') {
    assert.deepEqual(m.entities.map((e) => e.frame_id), ['hub_fl', 'hub_fr', 'hub_rl', 'hub_rr']);
    assert.ok(m.entities.every((e) => e.arrows.length === 1));
  } else {
    assert.equal(m.frame_id, 'world');
    assert.ok(m.poses.length >= 1 || topic === '/scene/trail');
  }
}

/// The `scene` message a page gets from the console at `url`.
async function pageScene({ url }) {
  const page = new WebSocket(url.replace('http:', 'ws:') + 'ws', ['hilsim.console.v1']);
  let scene = null;
  page.on('message', (d, binary) => {
    if (!binary && JSON.parse(d.toString()).type === 'scene') scene = JSON.parse(d.toString());
  });
  await until(() => scene !== null);
  page.close();
  return scene;
}

test('the 3D scene live on the page and Foxglove, and in telemetry.mcap', { timeout: 120000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hilsim-scene-'));
  const run = startHilsim(['run', '--no-rt', '--duration', '12s', '--record', join(dir, 'run'), '-q']);
  try {
    const { url } = await run.ready;

    // ---- the page: `scene` once, after `channels` and `course`
    const page = new WebSocket(url.replace('http:', 'ws:') + 'ws', ['hilsim.console.v1']);
    const types = [];
    let scene = null;
    page.on('message', (d, binary) => {
      if (binary) return;
      const m = JSON.parse(d.toString());
      types.push(m.type);
      if (m.type === 'scene') scene = m;
    });
    await until(() => scene !== null);
    assert.ok(types.indexOf('channels') < types.indexOf('course'));
    assert.ok(types.indexOf('course') < types.indexOf('scene'));
    assert.equal(types.filter((t) => t === 'scene').length, 1);
    assert.deepEqual(scene.vehicle.wheels.map((w) => w.name), ['fl', 'fr', 'rl', 'rr']);
    assert.ok(Math.abs(scene.vehicle.wheelbase - 1.206) < 1e-9, 'RAVON');
    assert.ok(scene.vehicle.body.length > 0 && scene.vehicle.wheels.every((w) => w.radius > 0));
    const vertices = scene.terrain.vertices.length / 3;
    assert.ok(vertices > 1000 && vertices <= 65536);
    assert.equal(scene.terrain.colors.length, scene.terrain.vertices.length);
    assert.equal(scene.terrain.indices.length % 3, 0);
    assert.deepEqual(scene.terrain.surfaces.map((s) => s.name), ['dry']);
    assert.ok(scene.cones.length > 10 && scene.path.length > 10);
    assert.equal(scene.channels.yaw, 'vehicle.body.yaw');
    assert.deepEqual(scene.channels.wheels[3], {
      name: 'rr', spin: 'vehicle.wheel.rr.angle', steer: 'vehicle.wheel.rr.steer_angle',
      travel: 'vehicle.wheel.rr.suspension_travel', fx: 'vehicle.wheel.rr.longitudinal_force',
      fy: 'vehicle.wheel.rr.lateral_force', fz: 'vehicle.wheel.rr.normal_force',
    });
    page.close();

    // ---- Foxglove: every scene topic advertised, subscribed, decoded, valid
    const ws = new WebSocket(url.replace('http:', 'ws:') + 'ws', ['foxglove.websocket.v1']);
    const client = new foxglove.FoxgloveClient({ ws });
    const channels = [];
    const messages = [];
    client.on('advertise', (c) => channels.push(...c));
    client.on('message', (m) => messages.push(m));
    await until(() => channels.length > 0);
    const events = channels.findIndex((c) => c.topic === '/events');
    const sceneChannels = channels.filter((c) => SCENE_TOPICS.has(c.topic));
    assert.deepEqual(sceneChannels.map((c) => c.topic), [...SCENE_TOPICS.keys()], 'after /events, in order');
    assert.ok(channels.indexOf(sceneChannels[0]) > events);
    const byId = new Map();
    for (const c of sceneChannels) {
      assert.equal(c.schemaName, SCENE_TOPICS.get(c.topic));
      assert.equal(c.schemaEncoding, 'protobuf');
      const type = typeFrom(Buffer.from(c.schema, 'base64'), c.schemaName);
      byId.set(client.subscribe(c.id), { channel: c, type });
    }
    const seen = () => new Set(messages.map((m) => byId.get(m.subscriptionId).channel.topic));
    await until(() => seen().size === SCENE_TOPICS.size, 15000);
    await new Promise((r) => setTimeout(r, 1500));  // a few samples of each
    client.close();
    const counts = new Map();
    const liveBodies = new Map();
    const tfPerTime = new Map();
    for (const m of messages) {
      const { channel, type } = byId.get(m.subscriptionId);
      const bytes = new Uint8Array(m.data.buffer, m.data.byteOffset, m.data.byteLength);
      const decoded = decode(type, bytes);
      counts.set(channel.topic, (counts.get(channel.topic) ?? 0) + 1);
      if (channel.topic === '/tf') tfPerTime.set(m.timestamp, (tfPerTime.get(m.timestamp) ?? 0) + 1);
      const json = asFoxgloveJson(decoded);
      const validate = validator(channel.schemaName);
      assert.ok(validate(json), `${channel.topic}: ${ajv.errorsText(validate.errors)}`);
      expectSceneContent(channel.topic, json);
      if (channel.topic === '/tf' && json.child_frame_id === 'body') liveBodies.set(m.timestamp, json);
    }
    for (const t of ['/scene/world', '/scene/vehicle', '/scene/path']) assert.equal(counts.get(t), 1, `${t} once, at once`);
    assert.ok(tfPerTime.size >= 10, `/tf: ${tfPerTime.size} samples`);
    const perSample = [...tfPerTime.values()];
    assert.ok(perSample.slice(0, -1).every((n) => n === 9), `nine frames a sample: ${perSample}`);
    const times = [...tfPerTime.keys()];
    const gaps = times.slice(1).map((t, i) => Number(t - times[i]) * 1e-9);
    assert.ok(gaps.every((g) => g >= 1 / 30 - 1e-9), `at most 30 Hz: gaps ${gaps}`);
    console.log(`live: ${[...counts].map(([t, n]) => `${t} ${n}`).join(', ')}`);

    // ---- the recording: the same topics; /tf at tick k is the pose recorded at tick k
    const ended = await run.ended;
    assert.equal(ended.signal, null);
    await zstd.isLoaded;
    const file = await open(join(dir, 'run', 'telemetry.mcap'), 'r');
    const size = (await file.stat()).size;
    const reader = await McapIndexedReader.Initialize({
      readable: {
        size: async () => BigInt(size),
        read: async (offset, length) => {
          const b = Buffer.alloc(Number(length));
          await file.read(b, 0, Number(length), Number(offset));
          return b;
        },
      },
      decompressHandlers: { zstd: (b, n) => zstd.decompress(b, Number(n)) },
    });
    const recorded = new Map();
    for (const c of reader.channelsById.values()) {
      const schema = reader.schemasById.get(c.schemaId);
      recorded.set(c.topic, { name: schema.name, type: typeFrom(schema.data, schema.name) });
    }
    for (const [topic, name] of SCENE_TOPICS) assert.equal(recorded.get(topic)?.name, name, topic);
    const bodies = new Map();
    const poses = new Map();
    const recordedCounts = new Map();
    for await (const m of reader.readMessages({ topics: [...SCENE_TOPICS.keys(), ...POSE_TOPICS] })) {
      const topic = reader.channelsById.get(m.channelId).topic;
      recordedCounts.set(topic, (recordedCounts.get(topic) ?? 0) + 1);
      const decoded = decode(recorded.get(topic).type, m.data);
      if (POSE_TOPICS.includes(topic)) {
        notePose(poses, topic, m.logTime, decoded);
      } else if (topic === '/tf' && decoded.child_frame_id === 'body') {
        bodies.set(m.logTime, decoded);
      } else if (topic === '/scene/world' || topic === '/scene/forces') {
        const json = asFoxgloveJson(decoded);
        const validate = validator(recorded.get(topic).name);
        assert.ok(validate(json), `recorded ${topic}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    await file.close();
    assert.equal(bodies.size, 12 * 50, '12 s at the default 50 Hz');
    assert.equal(expectBodyEqualsPose(bodies, poses, 'recorded'), bodies.size, 'every recorded /tf body');
    // the live transforms were those of their ticks too (the console samples recorded ticks)
    const live = expectBodyEqualsPose(liveBodies, poses, 'live');
    assert.ok(live >= 10, `${live} live body poses compared with the recording`);
    for (const t of ['/scene/world', '/scene/vehicle', '/scene/path']) assert.equal(recordedCounts.get(t), 1, t);
    console.log(`recorded: ${[...recordedCounts].map(([t, n]) => `${t} ${n}`).join(', ')}`);

    // ---- its replay shows the same scene
    const replay = startHilsim(['replay', join(dir, 'run'), '--speed', 'realtime', '-q']);
    try {
      const replayed = await pageScene(await replay.ready);
      assert.deepEqual(replayed, scene, 'the replay\'s scene is the run\'s');
    } finally {
      replay.child.kill('SIGINT');
      await replay.ended;
    }
  } finally {
    run.child.kill('SIGINT');
    await run.ended;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the scenario\'s objects: static in /scene/world, moving in /scene/objects live and recorded', { timeout: 120000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hilsim-objects-'));
  const run = startHilsim(['run', '--no-rt', '--scenario', 'objects_crossing', '--duration', '8s', '--record', join(dir, 'run'), '-q']);
  try {
    const { url } = await run.ready;
    // ---- the page: the objects with the channels that pose the moving ones
    const scene = await pageScene({ url });
    assert.deepEqual(scene.objects.map((o) => [o.name, o.shape, o.kind, o.channels === null]), [
      ['parked_crate', 'box', 'obstacle', true], ['lead_vehicle', 'box', 'vehicle', false],
      ['pedestrian', 'cylinder', 'pedestrian', false]]);
    assert.deepEqual(scene.objects[2].channels, { x: 'world.pedestrian.x', y: 'world.pedestrian.y', z: 'world.pedestrian.z', yaw: 'world.pedestrian.yaw' });
    assert.deepEqual([scene.objects[0].x, scene.objects[0].y, scene.objects[0].length], [6, -2.5, 2]);
    assert.deepEqual(scene.cones, [], 'a straight drive has no course cones');

    // ---- Foxglove: /scene/objects carries the moving ones, valid SceneUpdates at ≤ 30 Hz
    const ws = new WebSocket(url.replace('http:', 'ws:') + 'ws', ['foxglove.websocket.v1']);
    const client = new foxglove.FoxgloveClient({ ws });
    const channels = [];
    const messages = [];
    client.on('advertise', (c) => channels.push(...c));
    client.on('message', (m) => messages.push(m));
    await until(() => channels.length > 0);
    const byId = new Map();
    for (const topic of ['/scene/objects', '/scene/world']) {
      const c = channels.find((x) => x.topic === topic);
      assert.equal(c.schemaName, 'foxglove.SceneUpdate');
      byId.set(client.subscribe(c.id), { topic, type: typeFrom(Buffer.from(c.schema, 'base64'), c.schemaName) });
    }
    await until(() => messages.filter((m) => byId.get(m.subscriptionId).topic === '/scene/objects').length >= 10, 15000);
    client.close();
    const times = [];
    for (const m of messages) {
      const { topic, type } = byId.get(m.subscriptionId);
      const json = asFoxgloveJson(decode(type, new Uint8Array(m.data.buffer, m.data.byteOffset, m.data.byteLength)));
      const validate = validator('foxglove.SceneUpdate');
      assert.ok(validate(json), `${topic}: ${ajv.errorsText(validate.errors)}`);
      if (topic === '/scene/world') {
        const crate = json.entities.find((e) => e.id === 'object_parked_crate');
        assert.deepEqual([crate.cubes[0].size.x, crate.cubes[0].size.y, crate.cubes[0].size.z], [2, 1, 1]);
        assert.equal(json.entities.find((e) => e.id === 'object_pedestrian'), undefined);
      } else {
        times.push(m.timestamp);
        assert.deepEqual(json.entities.map((e) => e.id), ['object_lead_vehicle', 'object_pedestrian']);
        const walker = json.entities[1].cylinders[0];
        assert.equal(walker.pose.position.x, 14);
        assert.ok(Math.abs(walker.pose.position.z - (scene.objects[2].z + 0.9)) < 1e-9, 'standing on the ground');
      }
    }
    const gaps = times.slice(1).map((t, i) => Number(t - times[i]) * 1e-9);
    assert.ok(gaps.every((g) => g >= 1 / 30 - 1e-9), `at most 30 Hz: gaps ${gaps}`);

    // ---- recorded at the scene rate (50 Hz), the pedestrian crossing once the vehicle passed 3 m
    const ended = await run.ended;
    assert.equal(ended.signal, null);
    await zstd.isLoaded;
    const file = await open(join(dir, 'run', 'telemetry.mcap'), 'r');
    const size = (await file.stat()).size;
    const reader = await McapIndexedReader.Initialize({
      readable: {
        size: async () => BigInt(size),
        read: async (offset, length) => {
          const b = Buffer.alloc(Number(length));
          await file.read(b, 0, Number(length), Number(offset));
          return b;
        },
      },
      decompressHandlers: { zstd: (b, n) => zstd.decompress(b, Number(n)) },
    });
    const channel = [...reader.channelsById.values()].find((c) => c.topic === '/scene/objects');
    const schema = reader.schemasById.get(channel.schemaId);
    const type = typeFrom(schema.data, schema.name);
    const ys = [];
    for await (const m of reader.readMessages({ topics: ['/scene/objects'] })) {
      ys.push(decode(type, m.data).entities[1].cylinders[0].pose.position.y);
    }
    await file.close();
    assert.equal(ys.length, 8 * 50, '8 s at the default 50 Hz');
    assert.equal(ys[0], -5, 'waiting at its start');
    assert.ok(ys[ys.length - 1] > -4, `crossing: ${ys[ys.length - 1]}`);
    assert.ok(ys.every((y, i) => i === 0 || y >= ys[i - 1]), 'one way');
  } finally {
    run.child.kill('SIGINT');
    await run.ended;
    rmSync(dir, { recursive: true, force: true });
  }
});
