// scene_model.js: the 3D view's data without three.js (docs/console.md "3D"): a scene message
// is checked before it is drawn, the pose rows' channels come in the documented order, the
// body's rotation is qz(yaw)·qy(pitch)·qx(roll), the hubs move with the suspension, the force
// arrows are 1 m per 2 kN, the cameras follow the vehicle and the trail is spaced and bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkScene, chaseCamera, forceArrow, poseChannels, poseOf, quatFromRpy, srgbToLinear, topCamera,
  trailUpTo } from '../src/scene_model.js';
import { sceneFixture } from './scene_fixture.mjs';

const close = (a, b, eps = 1e-12) => a.every((x, i) => Math.abs(x - b[i]) <= eps);

/// Hamilton product of quaternions [x, y, z, w].
function mul([ax, ay, az, aw], [bx, by, bz, bw]) {
  return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
}
const axis = (k, a) => { const q = [0, 0, 0, Math.cos(a / 2)]; q[k] = Math.sin(a / 2); return q; };
/// v rotated by q.
function rotate(q, v) {
  const [x, y, z] = mul(mul(q, [...v, 0]), [-q[0], -q[1], -q[2], q[3]]);
  return [x, y, z];
}

test('the body\'s rotation is qz(yaw)·qy(pitch)·qx(roll)', () => {
  for (const [r, p, y] of [[0, 0, 0], [0.1, 0, 0], [0, -0.2, 0], [0, 0, 2.5], [0.3, -0.4, 1.2], [-1, 0.7, -3]]) {
    const want = mul(mul(axis(2, y), axis(1, p)), axis(0, r));
    assert.ok(close(quatFromRpy(r, p, y), want), `${r}, ${p}, ${y}`);
  }
  // what it means (ISO 8855, x forward, y left, z up): a yaw of 90° turns forward to the world's
  // y; a positive pitch puts the nose down; a positive roll lifts the left side
  assert.ok(close(rotate(quatFromRpy(0, 0, Math.PI / 2), [1, 0, 0]), [0, 1, 0]));
  assert.ok(rotate(quatFromRpy(0, 0.17, 0), [1, 0, 0])[2] < 0, 'pitch + : nose down');
  assert.ok(rotate(quatFromRpy(0.17, 0, 0), [0, 1, 0])[2] > 0, 'roll + : left side up');
});

test('a scene from the contract is accepted; what cannot be drawn is named', () => {
  assert.deepEqual(checkScene(sceneFixture()).problems, []);
  const broken = (f) => { const s = sceneFixture(); f(s); return checkScene(s); };
  const cases = [
    [(s) => { delete s.vehicle.wheelbase; }, /vehicle: wheelbase and track/],
    [(s) => { s.vehicle.body.z = 'up'; }, /vehicle.body/],
    [(s) => { s.vehicle.wheels[2].radius = null; }, /vehicle.wheels\[2\]/],
    [(s) => { s.terrain.colors.pop(); }, /colour values for/],
    [(s) => { s.terrain.indices.push(1e6, 0, 1); }, /terrain.indices/],
    [(s) => { s.terrain.vertices = new Array(3 * 65537).fill(0); s.terrain.colors = s.terrain.vertices; }, /at most 65536 vertices/],
    [(s) => { s.cones = [[1, 2, 3]]; }, /cones: a list of \[x, y\]/],
    [(s) => { s.path = null; }, /path/],
    [(s) => { s.channels.wheels.pop(); }, /channels:/],
    [(s) => { s.channels.yaw = 3; }, /channels:/],
    [(s) => { [s.channels.wheels[0].name, s.channels.wheels[1].name] = ['fr', 'fl']; }, /channels:/],
  ];
  for (const [f, problem] of cases) {
    const { scene, problems } = broken(f);
    assert.equal(scene, null, String(problem));
    assert.ok(problems.some((p) => problem.test(p)), `${problem}: ${problems}`);
  }
  assert.equal(checkScene(undefined).scene, null);
});

test('a pose row: the body\'s six, then spin, steer, travel, fx, fy per wheel', () => {
  const s = sceneFixture();
  const names = poseChannels(s);
  assert.deepEqual(names.slice(0, 6), ['vehicle.body.position.x', 'vehicle.body.position.y', 'vehicle.body.position.z',
    'vehicle.body.roll', 'vehicle.body.pitch', 'vehicle.body.yaw']);
  assert.deepEqual(names.slice(6, 11), ['vehicle.wheel.fl.angle', 'vehicle.wheel.fl.steer_angle',
    'vehicle.wheel.fl.suspension_travel', 'vehicle.wheel.fl.longitudinal_force', 'vehicle.wheel.fl.lateral_force']);
  assert.equal(names.length, 6 + 5 * 4);

  const row = [10, 20, 0.6, 0.01, -0.02, 1.5, ...[0, 1, 2, 3].flatMap((i) => [i + 0.5, 0.1 * i, 0.01 * (i + 1), 1000 * i, -500])];
  const pose = poseOf(s, row);
  assert.deepEqual(pose.position, [10, 20, 0.6]);
  assert.deepEqual(pose.quaternion, quatFromRpy(0.01, -0.02, 1.5));
  const w = s.vehicle.wheels;
  pose.wheels.forEach((p, i) => {
    assert.equal(p.name, w[i].name);
    assert.deepEqual(p.hub, [w[i].x, w[i].y, w[i].z + 0.01 * (i + 1)], 'compression moves the wheel up');
    assert.equal(p.spin, i + 0.5);
    assert.equal(p.steer, 0.1 * i);
    assert.ok(Math.abs(p.arrow.length - Math.hypot(1000 * i, 500) / 2000) < 1e-12);
  });
  // a channel the run lacks (NaN) leaves the wheel at its centre
  assert.deepEqual(poseOf(s, row.map((v, i) => (i === 8 ? NaN : v))).wheels[0].hub, [w[0].x, w[0].y, w[0].z]);
});

test('force arrows: along (fx, fy) from the contact patch, 1 m per 2 kN, none without a force', () => {
  const a = forceArrow(2000, 0, 0.3);
  assert.deepEqual([a.origin, a.dir, a.length], [[0, 0, -0.3], [1, 0, 0], 1]);
  const b = forceArrow(-3000, 4000, 0.47);
  assert.ok(close(b.dir, [-0.6, 0.8, 0]));
  assert.equal(b.length, 2.5);
  assert.equal(forceArrow(0, 0, 0.3).length, 0);
  assert.equal(forceArrow(NaN, 10, 0.3).length, 0);
});

test('the chase camera sits behind the vehicle along its heading and looks at it; top looks down', () => {
  const s = sceneFixture();
  for (const yaw of [0, Math.PI / 2, -2.3]) {
    const pose = poseOf(s, [5, -3, 0.6, 0, 0, yaw, ...new Array(20).fill(0)]);
    const c = chaseCamera(pose, s.vehicle);
    const [dx, dy] = [c.target[0] - c.eye[0], c.target[1] - c.eye[1]];
    assert.ok(Math.abs(Math.atan2(dy, dx) - yaw) < 1e-9 || Math.abs(Math.abs(Math.atan2(dy, dx) - yaw) - 2 * Math.PI) < 1e-9, 'looks along the heading');
    assert.ok(Math.hypot(dx, dy) > s.vehicle.body.length, 'far enough behind to see the whole body');
    assert.ok(c.eye[2] > c.target[2], 'from above');
    assert.deepEqual(c.target.slice(0, 2), [5, -3]);
    const t = topCamera(pose, s.vehicle);
    assert.deepEqual([t.eye[0], t.eye[1], t.target[0], t.target[1]], [5, -3, 5, -3], 'straight above, following');
    assert.deepEqual(t.up, [0, 1, 0], 'y up on the screen, as the XY view');
    assert.ok(t.span >= 12);
  }
});

test('the scene\'s sRGB colours become the linear values three.js shades', () => {
  assert.equal(srgbToLinear(0), 0);
  assert.equal(srgbToLinear(1), 1);
  assert.ok(Math.abs(srgbToLinear(0.5) - 0.21404) < 1e-5);
  assert.ok(Math.abs(srgbToLinear(0.04) - 0.04 / 12.92) < 1e-12);
});

test('the trail: the newest positions up to the cursor, 0.1 m apart, at most 2000, oldest first', () => {
  const rows = Array.from({ length: 5000 }, (_, i) => [0.04 * i, 0]);  // 4 cm a row
  rows.push([NaN, 1]);
  const history = { value: (i, j) => rows[i][j] };
  const trail = trailUpTo(history, 2500);
  assert.deepEqual(trail.at(-1), [100, 0], 'ends at the cursor\'s row');
  assert.ok(trail.every((p, i) => i === 0 || Math.hypot(p[0] - trail[i - 1][0], p[1] - trail[i - 1][1]) >= 0.1 - 1e-9));
  assert.equal(trail.length, 834, 'every third row (0.12 m) from 100 m back to 0.04 m');
  assert.equal(trailUpTo(history, 4999, 500).length, 500, 'bounded');
  const skipped = trailUpTo(history, 5000, 3);  // row 5000 is not finite
  assert.ok(close(skipped.flat(), [0.04 * 4993, 0, 0.04 * 4996, 0, 0.04 * 4999, 0], 1e-9), JSON.stringify(skipped));
  assert.deepEqual(trailUpTo(history, -1), []);
});

test('the scenario\'s objects: a static one where it stands, a moving one at its channels after the wheels\'', () => {
  const s = sceneFixture();
  s.objects = [
    { name: 'crate', shape: 'box', kind: 'obstacle', length: 2, width: 1, height: 1, x: 6, y: -2.5, z: 0.6, yaw: 0.1, color: [0.5, 0.4, 0.3], channels: null },
    { name: 'walker', shape: 'cylinder', kind: 'pedestrian', length: 0.5, width: 0.5, height: 1.8, x: 14, y: -5, z: 1.4, yaw: Math.PI / 2, color: [1, 0.8, 0.1],
      channels: { x: 'world.walker.x', y: 'world.walker.y', z: 'world.walker.z', yaw: 'world.walker.yaw' } },
  ];
  assert.deepEqual(checkScene(s).problems, []);
  const names = poseChannels(s);
  assert.equal(names.length, 6 + 5 * 4 + 4, 'the moving object only');
  assert.deepEqual(names.slice(26), ['world.walker.x', 'world.walker.y', 'world.walker.z', 'world.walker.yaw']);
  const row = [0, 0, 0, 0, 0, 0, ...new Array(20).fill(0), 14, 1.25, 1.4, Math.PI / 2];
  const pose = poseOf(s, row);
  assert.deepEqual(pose.objects, [{ name: 'crate', position: [6, -2.5, 0.6], yaw: 0.1 },
    { name: 'walker', position: [14, 1.25, 1.4], yaw: Math.PI / 2 }]);
  // before its channels have a value: where it starts
  assert.deepEqual(poseOf(s, row.map((v, i) => (i === 27 ? NaN : v))).objects[1].position, [14, -5, 1.4]);
  // a scene without objects poses none; an object that cannot be drawn is named
  assert.deepEqual(poseOf(sceneFixture(), row.slice(0, 26)).objects, []);
  s.objects[1].shape = 'sphere';
  assert.ok(checkScene(s).problems.some((p) => /objects\[1\]/.test(p)));
});
