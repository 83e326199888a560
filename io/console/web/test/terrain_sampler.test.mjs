// terrain_sampler.js: the ground height under a point from the scene's mesh (docs/console.md
// "3D"): exact on a plane, linear inside a triangle of a bumpy mesh, the fallback off the mesh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TerrainSampler } from '../src/terrain_sampler.js';
import { sceneFixture } from './scene_fixture.mjs';

test('on an incline the height is the plane\'s everywhere on the mesh', () => {
  const ground = new TerrainSampler(sceneFixture().terrain);  // z = 0.1·x over [0, 20] × [-5, 5]
  for (const [x, y] of [[0, 0], [3.3, -4.9], [9.99, 2.5], [10.01, 0.123], [20, 5], [17.77, -1.3]]) {
    assert.ok(Math.abs(ground.heightAt(x, y) - 0.1 * x) < 1e-9, `(${x}, ${y}): ${ground.heightAt(x, y)}`);
  }
  assert.equal(ground.heightAt(-1, 0, -7), -7, 'off the mesh: the fallback');
  assert.equal(ground.heightAt(5, 50), 0, 'default fallback 0');
});

test('inside a triangle the height is linear between its corners', () => {
  // one square of two triangles, a bump at corner (1, 1)
  const ground = new TerrainSampler({ vertices: [0, 0, 0, 1, 0, 0, 1, 1, 2, 0, 1, 0], indices: [0, 1, 2, 0, 2, 3] });
  assert.ok(Math.abs(ground.heightAt(1, 1) - 2) < 1e-12);
  assert.ok(Math.abs(ground.heightAt(0.75, 0.25) - 0.5) < 1e-12, 'triangle 0-1-2: z = 2·y');
  assert.ok(Math.abs(ground.heightAt(0.25, 0.75) - 0.5) < 1e-12, 'triangle 0-2-3: z = 2·x');
  assert.equal(ground.heightAt(0, 0), 0);
});
