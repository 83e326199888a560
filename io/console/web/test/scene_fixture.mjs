// A `scene` message as the scene contract defines it (docs/console.md "3D"), for the unit tests:
// a RAVON-like vehicle (wheelbase 1.206 m, track 1.156 m), a 20 m × 10 m terrain grid rising
// 0.1 m per metre in x, dry (grey) for x < 10 and ice (white-blue) beyond, three cones and a path.
export function sceneFixture({ nx = 21, ny = 11 } = {}) {
  const vertices = [], colors = [], indices = [];
  for (let j = 0; j < ny; ++j) {
    for (let i = 0; i < nx; ++i) {
      const x = i * 20 / (nx - 1), y = -5 + j * 10 / (ny - 1);
      vertices.push(x, y, 0.1 * x);
      colors.push(...(x < 10 ? [0.35, 0.35, 0.37] : [0.85, 0.92, 1]));
    }
  }
  for (let j = 0; j + 1 < ny; ++j) {
    for (let i = 0; i + 1 < nx; ++i) {
      const a = j * nx + i;
      indices.push(a, a + 1, a + nx + 1, a, a + nx + 1, a + nx);
    }
  }
  const names = ['fl', 'fr', 'rl', 'rr'];
  const wheels = names.map((name, k) => ({ name, x: k < 2 ? 0.603 : -0.603, y: k % 2 ? -0.578 : 0.578, z: -0.29,
    radius: 0.3175, width: 0.254, steered: true }));
  return {
    type: 'scene',
    vehicle: { wheelbase: 1.206, track: 1.156, body: { length: 2.35, width: 1.4, height: 1.0, z: 0.2 }, wheels },
    terrain: { vertices, colors, indices, surfaces: [{ name: 'dry', color: [0.35, 0.35, 0.37] }, { name: 'ice', color: [0.85, 0.92, 1] }] },
    cones: [[5, 1.5], [5, -1.5], [15, 0]],
    path: [[0, 0], [10, 0], [20, 0]],
    channels: {
      x: 'vehicle.body.position.x', y: 'vehicle.body.position.y', z: 'vehicle.body.position.z',
      roll: 'vehicle.body.roll', pitch: 'vehicle.body.pitch', yaw: 'vehicle.body.yaw',
      wheels: names.map((w) => ({ name: w, spin: `vehicle.wheel.${w}.angle`, steer: `vehicle.wheel.${w}.steer_angle`,
        travel: `vehicle.wheel.${w}.suspension_travel`, fx: `vehicle.wheel.${w}.longitudinal_force`,
        fy: `vehicle.wheel.${w}.lateral_force`, fz: `vehicle.wheel.${w}.normal_force` })),
    },
  };
}
