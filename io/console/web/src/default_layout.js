// The layout a page opens with when the operator has none saved for the rig (docs/console.md
// "Layouts"): derived from the channels the run has, by the names the vehicle model publishes
// (the same for every rig built from it, a user's included), so no rig file needs a layout; a
// run without a vehicle (the timing bench) plots its inputs.
import { FORMAT } from './layout.js';

/// Panels in order: a title and the channels it takes from the run. `refs`: each channel is
/// followed by its reference, the channel of the same name ending in `_ref`, when there is one.
const PANELS = [
  { title: 'vehicle speed', first: ['vehicle.body.forward_speed', 'vehicle.body.speed'], refs: true },
  { title: 'wheel speeds', match: /^vehicle\.wheel\.[^.]+\.speed$/, refs: true },
  { title: 'steering', match: /^vehicle\.steering\.[^.]+\.(command|angle)$/ },
  { title: 'battery', all: ['vehicle.battery.voltage', 'vehicle.battery.current', 'vehicle.battery.soc'] },
  { title: 'engine', all: ['vehicle.powertrain.engine_speed', 'vehicle.powertrain.throttle', 'vehicle.powertrain.gear'] },
];
/// The views beside the plots when the run has the vehicle's position.
const POSITION = ['vehicle.body.position.x', 'vehicle.body.position.y'];
/// A run without a vehicle (the timing bench) plots its inputs, at most this many.
const MAX_INPUTS = 8;

/// The default layout of a run with `channels` ({name, direction}, in the run's order).
export function defaultLayout(rig, channels) {
  const names = channels.map((c) => c.name);
  const has = new Set(names);
  const panels = [];
  for (const p of PANELS) {
    let picked = [];
    if (p.first) picked = p.first.filter((n) => has.has(n)).slice(0, 1);
    if (p.match) picked = names.filter((n) => p.match.test(n));
    if (p.all) picked = p.all.filter((n) => has.has(n));
    if (p.refs) picked = picked.flatMap((n) => (has.has(`${n}_ref`) ? [n, `${n}_ref`] : [n]));
    if (picked.length) panels.push({ title: p.title, channels: picked });
  }
  const inputs = channels.filter((c) => c.direction === 'input').slice(0, MAX_INPUTS).map((c) => c.name);
  if (!panels.length && inputs.length) panels.push({ title: 'inputs', channels: inputs });
  const views = POSITION.every((n) => has.has(n)) ? ['3d', 'xy'] : [];
  return { format: FORMAT, rig, window_s: 60, panels: panels.length ? panels : [{ channels: [] }], views };
}

/// The series style of `name` in a panel with `names`: a reference (`X_ref` beside its `X`)
/// is drawn dashed in its channel's colour; returns {colorOf, dash} where colorOf is the index
/// whose palette colour it takes.
export function seriesStyle(name, names) {
  const base = name.endsWith('_ref') ? name.slice(0, -4) : null;
  const own = names.filter((n) => !(n.endsWith('_ref') && names.includes(n.slice(0, -4))));
  if (base !== null && names.includes(base)) return { colorOf: own.indexOf(base), dash: [6, 4] };
  return { colorOf: own.indexOf(name), dash: null };
}
