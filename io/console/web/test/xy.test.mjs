// xy.js, the vehicle's path of the XY view (docs/console.md "XY"): positions before the
// vehicle has one are not drawn, a standing vehicle does not grow the path, a long run's path
// stays bounded with its newest end, and a new run starts a new path. (Drawing needs a canvas:
// the page's browser tests cover it.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XyView } from '../src/xy.js';

test('positions that are not finite are left out of the path', () => {
  const xy = new XyView(null);
  xy.add(NaN, 0);
  xy.add(0, Infinity);
  xy.add(1, 2);
  xy.add(null, 3);  // JSON's NaN
  xy.add(2, 2);
  assert.deepEqual(xy.trace, [[1, 2], [2, 2]]);
});

test('a standing vehicle does not grow the path: points under 1 cm apart are one', () => {
  const xy = new XyView(null);
  for (let i = 0; i < 1000; ++i) xy.add(5 + 0.0009 * (i % 10), -3);  // up to 8 mm off
  assert.equal(xy.trace.length, 1);
  xy.add(5.02, -3);
  assert.deepEqual(xy.trace, [[5, -3], [5.02, -3]]);
});

test('a long run\'s path stays bounded and keeps its newest end', () => {
  const xy = new XyView(null);
  for (let i = 0; i < 100000; ++i) xy.add(i * 0.1, 0);
  assert.ok(xy.trace.length <= 20000, `${xy.trace.length} points`);
  assert.ok(xy.trace.length >= 15000, `${xy.trace.length} points`);
  assert.deepEqual(xy.trace[xy.trace.length - 1], [99999 * 0.1, 0]);
  assert.ok(xy.trace.every((p, i) => i === 0 || p[0] > xy.trace[i - 1][0]), 'in order');
});

test('a new run clears the course and the path', () => {
  const xy = new XyView(null);
  xy.setCourse({ path: [[0, 0], [10, 0]], cones: [[5, 1]] });
  xy.add(1, 1);
  assert.equal(xy.course.cones.length, 1);
  xy.reset();
  assert.equal(xy.course, null);
  assert.deepEqual(xy.trace, []);
});

test('objects: a box\'s footprint turns with its yaw, a moving object follows finite values only', async () => {
  const { footprint } = await import('../src/xy.js');
  const box = footprint({ shape: 'box', x: 10, y: 5, yaw: Math.PI / 2, length: 4, width: 2 });
  const near = (a, b) => a.every((v, i) => Math.abs(v - b[i]) < 1e-12);
  assert.ok(near(box.corners[0], [10 - 1, 5 + 2]), `${box.corners[0]}`);  // front left: +2 along y, 1 to the left (−x)
  assert.ok(near(box.corners[2], [10 + 1, 5 - 2]), `${box.corners[2]}`);
  assert.deepEqual(footprint({ shape: 'cone', x: 1, y: 2, yaw: 0, length: 0.3, width: 0.3 }), { circle: [1, 2, 0.15] });
  const xy = new XyView(null);
  xy.setObjects([{ name: 'p', shape: 'cylinder', x: 0, y: -5, yaw: 0, width: 0.5, channels: { x: 'a', y: 'b', z: 'c', yaw: 'd' } }]);
  assert.equal(xy.moveObject(0, 0, -4, 1.57), true);
  assert.equal(xy.moveObject(0, NaN, -3, 1.57), false);
  assert.equal(xy.moveObject(0, 0, -4, 1.57), false, 'not moved');
  assert.deepEqual([xy.objects[0].x, xy.objects[0].y], [0, -4]);
  xy.reset();
  assert.deepEqual(xy.objects, []);
});
