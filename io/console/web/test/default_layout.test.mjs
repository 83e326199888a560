// default_layout.js: the layout a rig opens with when the operator has none saved (docs/console.md
// "Layouts"), derived from the run's channels: an electric rig (RAVON's names) gets speed, wheel
// speeds against their references, steering command and angle, battery; a combustion rig
// (HMMWV's) the engine instead; every rig with a position the 3D and XY views; a run without
// a vehicle (the timing bench) its inputs. The layout is a valid saved layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultLayout, seriesStyle } from '../src/default_layout.js';
import { FORMAT, parseLayout } from '../src/layout.js';

const WHEELS = ['fl', 'fr', 'rl', 'rr'];
const common = [
  ...WHEELS.flatMap((w) => ['speed', 'angle', 'steer_angle', 'suspension_travel'].map((f) => `vehicle.wheel.${w}.${f}`)),
  'vehicle.body.position.x', 'vehicle.body.position.y', 'vehicle.body.position.z', 'vehicle.body.speed',
  'vehicle.body.forward_speed', 'vehicle.body.yaw', 'env.wind.speed'];
const electric = [...WHEELS.flatMap((w) => [`vehicle.wheel.${w}.speed_ref`, `vehicle.wheel.${w}.motor.current`]),
  'vehicle.steering.front.command', 'vehicle.steering.rear.command', 'vehicle.battery.voltage', 'vehicle.battery.current',
  'vehicle.battery.soc', ...common, 'vehicle.steering.front.angle', 'vehicle.steering.rear.angle'];
/// Channel objects of `names`; `inputs` are inputs, the others outputs.
const ch = (names, inputs = []) => names.map((name) => ({ name, direction: inputs.includes(name) ? 'input' : 'output' }));
const combustion = ['vehicle.steering.front.command', 'vehicle.powertrain.throttle', 'vehicle.powertrain.engine_speed',
  'vehicle.powertrain.gear', 'vehicle.powertrain.engine_torque', ...common, 'vehicle.steering.front.angle'];

test('an electric rig: speed, wheel speeds with their references, steering, battery; 3D and XY', () => {
  const l = defaultLayout('ravon', ch(electric));
  assert.deepEqual(l.panels, [
    { title: 'vehicle speed', channels: ['vehicle.body.forward_speed'] },
    { title: 'wheel speeds', channels: WHEELS.flatMap((w) => [`vehicle.wheel.${w}.speed`, `vehicle.wheel.${w}.speed_ref`]) },
    { title: 'steering', channels: ['vehicle.steering.front.command', 'vehicle.steering.rear.command',
      'vehicle.steering.front.angle', 'vehicle.steering.rear.angle'] },
    { title: 'battery', channels: ['vehicle.battery.voltage', 'vehicle.battery.current', 'vehicle.battery.soc'] }]);
  assert.deepEqual(l.views, ['3d', 'xy']);
  assert.deepEqual([l.format, l.rig, l.window_s], [FORMAT, 'ravon', 60]);
});

test('a combustion rig: the engine instead of a battery, wheel speeds without references', () => {
  const l = defaultLayout('hmmwv', ch(combustion));
  assert.deepEqual(l.panels.map((p) => p.title), ['vehicle speed', 'wheel speeds', 'steering', 'engine']);
  assert.deepEqual(l.panels[1].channels, WHEELS.map((w) => `vehicle.wheel.${w}.speed`));
  assert.deepEqual(l.panels[3].channels, ['vehicle.powertrain.engine_speed', 'vehicle.powertrain.throttle', 'vehicle.powertrain.gear']);
});

test('a vehicle speed with a reference channel is plotted against it', () => {
  const l = defaultLayout('x', ch(['vehicle.body.forward_speed_ref', 'vehicle.body.forward_speed']));
  assert.deepEqual(l.panels[0].channels, ['vehicle.body.forward_speed', 'vehicle.body.forward_speed_ref']);
  assert.deepEqual(defaultLayout('x', ch(['vehicle.body.speed'])).panels[0].channels, ['vehicle.body.speed'], 'no forward speed: the speed');
});

test('a run without a vehicle (the timing bench) plots its inputs (at most 8), without views; none: one empty panel', () => {
  const bench = [{ name: 'rt.loop.overruns', direction: 'output' }, ...['steer', 'throttle', 'brake', 'mode'].map((n) => ({ name: `driver.${n}`, direction: 'input' }))];
  assert.deepEqual(defaultLayout('bench', bench), { format: FORMAT, rig: 'bench', window_s: 60,
    panels: [{ title: 'inputs', channels: ['driver.steer', 'driver.throttle', 'driver.brake', 'driver.mode'] }], views: [] });
  const many = Array.from({ length: 12 }, (_, i) => ({ name: `in.${i}`, direction: 'input' }));
  assert.deepEqual(defaultLayout('b', many).panels[0].channels, many.slice(0, 8).map((c) => c.name));
  assert.deepEqual(defaultLayout('bench', []), { format: FORMAT, rig: 'bench', window_s: 60, panels: [{ channels: [] }], views: [] });
});

test('a vehicle\'s inputs are not plotted by default (its panels are)', () => {
  assert.ok(defaultLayout('ravon', ch([...electric, 'env.wind.speed'], ['env.wind.speed'])).panels.every((p) => p.title !== 'inputs'));
});

test('a default layout is a valid layout: exported and imported it comes back as it was', () => {
  for (const names of [electric, combustion, []]) {
    const l = defaultLayout('r', ch(names));
    const { layout, problems } = parseLayout(JSON.stringify(l), new Set(names));
    assert.deepEqual(problems, []);
    assert.deepEqual(layout, l);
  }
});

test('a reference is dashed in its channel\'s colour; the others take the palette in order', () => {
  const names = ['a.speed', 'a.speed_ref', 'b.speed', 'b.speed_ref', 'c.x_ref'];
  assert.deepEqual(names.map((n) => seriesStyle(n, names)), [
    { colorOf: 0, dash: null }, { colorOf: 0, dash: [6, 4] }, { colorOf: 1, dash: null }, { colorOf: 1, dash: [6, 4] },
    { colorOf: 2, dash: null }]);
});
