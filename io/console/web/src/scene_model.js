// The 3D view's data, without three.js (docs/console.md "3D"): the server's `scene` message
// checked, the channels a pose needs, the pose of one sample row (frames world → body →
// hub_<w> → wheel_<w> as the scene contract defines them, and the scenario's objects: a moving
// one at its channels world.<name>.x, .y, .z, .yaw), the tire force arrows and the cameras that
// follow the vehicle. Pure functions: unit-tested in node (test/scene_model.test.mjs).

export const MAX_TERRAIN_VERTICES = 65536;
/// Force arrows: 1 m per 2 kN (the scene contract's scale).
export const NEWTONS_PER_METRE = 2000;
/// Values per wheel in a pose row, after the body's six.
export const WHEEL_FIELDS = ['spin', 'steer', 'travel', 'fx', 'fy'];
const BODY_FIELDS = ['x', 'y', 'z', 'roll', 'pitch', 'yaw'];
/// Values per moving object in a pose row, after the wheels'.
export const OBJECT_FIELDS = ['x', 'y', 'z', 'yaw'];
export const OBJECT_SHAPES = ['box', 'cylinder', 'cone'];

const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
const nums = (a) => Array.isArray(a) && a.every(isNum);

/// Checks a `scene` message; returns {scene, problems}: scene null when it cannot be drawn.
export function checkScene(m) {
  const problems = [];
  const v = m?.vehicle, t = m?.terrain, ch = m?.channels;
  if (!v || !isNum(v.wheelbase) || !isNum(v.track)) problems.push('vehicle: wheelbase and track must be numbers');
  const b = v?.body;
  if (!b || !['length', 'width', 'height', 'z'].every((k) => isNum(b[k]))) problems.push('vehicle.body: length, width, height and z must be numbers');
  const wheels = Array.isArray(v?.wheels) ? v.wheels : [];
  if (!wheels.length) problems.push('vehicle.wheels: none');
  wheels.forEach((w, i) => {
    if (typeof w?.name !== 'string' || !['x', 'y', 'z', 'radius', 'width'].every((k) => isNum(w[k]))) {
      problems.push(`vehicle.wheels[${i}]: name, x, y, z, radius and width needed`);
    }
  });
  if (!t || !nums(t.vertices) || !nums(t.colors) || !nums(t.indices)) {
    problems.push('terrain: vertices, colors and indices must be lists of numbers');
  } else {
    const n = t.vertices.length / 3;
    if (!Number.isInteger(n) || n > MAX_TERRAIN_VERTICES) problems.push(`terrain: ${t.vertices.length} vertex coordinates (at most ${MAX_TERRAIN_VERTICES} vertices of 3)`);
    if (t.colors.length !== t.vertices.length) problems.push(`terrain: ${t.colors.length} colour values for ${t.vertices.length} vertex coordinates`);
    if (t.indices.length % 3 !== 0 || t.indices.some((i) => !Number.isInteger(i) || i < 0 || i >= n)) problems.push('terrain.indices: triangles of vertex indices');
  }
  for (const k of ['cones', 'path']) {
    if (!Array.isArray(m?.[k]) || !m[k].every((p) => Array.isArray(p) && p.length === 2 && nums(p))) problems.push(`${k}: a list of [x, y]`);
  }
  if (m?.objects !== undefined && !Array.isArray(m.objects)) problems.push('objects: a list');
  (Array.isArray(m?.objects) ? m.objects : []).forEach((o, i) => {
    const c = o?.channels;
    if (typeof o?.name !== 'string' || !OBJECT_SHAPES.includes(o?.shape) ||
        !['length', 'width', 'height', 'x', 'y', 'z', 'yaw'].every((k) => isNum(o[k])) ||
        !(c === null || OBJECT_FIELDS.every((k) => typeof c?.[k] === 'string'))) {
      problems.push(`objects[${i}]: name, shape (${OBJECT_SHAPES.join(', ')}), length, width, height, x, y, z, yaw and channels (null or x, y, z, yaw) needed`);
    }
  });
  const names = ch ? [...BODY_FIELDS.map((k) => ch[k]), ...(ch.wheels ?? []).flatMap((w) => WHEEL_FIELDS.map((k) => w?.[k]))] : [];
  if (!ch || names.some((n) => typeof n !== 'string') || (ch.wheels ?? []).length !== wheels.length ||
      ch.wheels.some((w, i) => w.name !== wheels[i]?.name)) {
    problems.push('channels: x, y, z, roll, pitch, yaw and, per wheel in the order of vehicle.wheels, spin, steer, travel, fx, fy');
  }
  return { scene: problems.length ? null : m, problems };
}

/// The scene's objects that move (their channels pose them), in its order.
export function movingObjects(scene) {
  return (scene.objects ?? []).filter((o) => o.channels);
}

/// The channels of a pose row, in its order: the body's x, y, z, roll, pitch, yaw, then per
/// wheel spin, steer, travel, fx, fy, then per moving object x, y, z, yaw.
export function poseChannels(scene) {
  const c = scene.channels;
  return [...BODY_FIELDS.map((k) => c[k]), ...c.wheels.flatMap((w) => WHEEL_FIELDS.map((k) => w[k])),
    ...movingObjects(scene).flatMap((o) => OBJECT_FIELDS.map((k) => o.channels[k]))];
}

/// q = qz(yaw)·qy(pitch)·qx(roll) as [x, y, z, w] (ISO 8855 Tait–Bryan angles, the frame
/// "body" in "world").
export function quatFromRpy(roll, pitch, yaw) {
  const [sr, cr] = [Math.sin(roll / 2), Math.cos(roll / 2)];
  const [sp, cp] = [Math.sin(pitch / 2), Math.cos(pitch / 2)];
  const [sy, cy] = [Math.sin(yaw / 2), Math.cos(yaw / 2)];
  return [sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy, cr * cp * cy + sr * sp * sy];
}

/// The force arrow of a wheel in its hub frame: from the contact patch (0, 0, −radius) along
/// the horizontal force (fx, fy), 1 m per 2 kN; length 0 without a force.
export function forceArrow(fx, fy, radius) {
  const f = Math.hypot(fx, fy);
  if (!Number.isFinite(f) || f === 0) return { origin: [0, 0, -radius], dir: [1, 0, 0], length: 0 };
  return { origin: [0, 0, -radius], dir: [fx / f, fy / f, 0], length: f / NEWTONS_PER_METRE };
}

/// The pose of one row (poseChannels' order): the body in the world, and per wheel its hub
/// in the body (the wheel centre moved up by the suspension travel: + is compression,
/// models/chassis r = h + ζ·e_z), its steer and spin angles and its force arrow.
export function poseOf(scene, row) {
  const [x, y, z, roll, pitch, yaw] = row;
  const wheels = scene.vehicle.wheels.map((w, i) => {
    const [spin, steer, travel, fx, fy] = row.slice(6 + i * WHEEL_FIELDS.length, 6 + (i + 1) * WHEEL_FIELDS.length);
    return { name: w.name, hub: [w.x, w.y, w.z + (Number.isFinite(travel) ? travel : 0)], steer, spin, arrow: forceArrow(fx, fy, w.radius) };
  });
  // the objects: a moving one where its channels say (where it starts while they have no value)
  let k = 6 + scene.vehicle.wheels.length * WHEEL_FIELDS.length;
  const objects = (scene.objects ?? []).map((o) => {
    if (!o.channels) return { name: o.name, position: [o.x, o.y, o.z], yaw: o.yaw };
    const [ox, oy, oz, oyaw] = row.slice(k, (k += OBJECT_FIELDS.length));
    const ok = [ox, oy, oz, oyaw].every(Number.isFinite);
    return { name: o.name, position: ok ? [ox, oy, oz] : [o.x, o.y, o.z], yaw: ok ? oyaw : o.yaw };
  });
  return { position: [x, y, z], rpy: [roll, pitch, yaw], quaternion: quatFromRpy(roll, pitch, yaw), wheels, objects };
}

/// The chase camera: behind the vehicle along its heading, above it, looking at the body.
export function chaseCamera(pose, vehicle) {
  const [x, y, z] = pose.position, yaw = pose.rpy[2];
  const back = Math.max(4, 2.6 * vehicle.body.length), up = Math.max(1.8, 1.6 * vehicle.body.height);
  const target = [x, y, z + vehicle.body.z];
  return { eye: [x - back * Math.cos(yaw), y - back * Math.sin(yaw), target[2] + up], target, up: [0, 0, 1] };
}

/// The top camera: straight down on the vehicle, x to the right and y up (as the XY view);
/// `span` the metres the shorter side of the view shows.
export function topCamera(pose, vehicle) {
  const [x, y, z] = pose.position;
  const span = Math.max(12, 8 * vehicle.wheelbase);
  return { eye: [x, y, z + 100], target: [x, y, z], up: [0, 1, 0], span };
}

/// sRGB (the scene's colours, as Foxglove's) to the linear values three.js shades with.
export function srgbToLinear(c) {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/// The driven trail up to row `last` of `history` (x, y the row's values 0 and 1): the
/// newest positions, at least `spacing` m apart, at most `max` of them, oldest first.
export function trailUpTo(history, last, max = 2000, spacing = 0.1) {
  const out = [];
  let px = NaN, py = NaN;
  for (let i = last; i >= 0 && out.length < max; --i) {
    const x = history.value(i, 0), y = history.value(i, 1);
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (out.length && Math.hypot(x - px, y - py) < spacing) continue;
    out.push([x, y]);
    px = x; py = y;
  }
  return out.reverse();
}
