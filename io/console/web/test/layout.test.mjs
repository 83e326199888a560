// layout.js: layouts saved per rig in the browser and exported/imported as JSON files
// (docs/console.md "Layouts"): a saved layout comes back as it was, a bad one is refused
// with a reason, channels this run does not have are dropped and named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyLayout, FORMAT, parseLayout, storageKey } from '../src/layout.js';

const KNOWN = new Set(['vehicle.body.speed', 'vehicle.body.forward_speed', 'env.disturbance.force.x']);

test('a saved or exported layout comes back as it was', () => {
  // what app.js saves and exports: the layout with the run's rig
  const layout = { format: FORMAT, rig: 'ravon', window_s: 120, panels: [
    { title: 'speeds', channels: ['vehicle.body.speed', 'vehicle.body.forward_speed'] },
    { channels: ['env.disturbance.force.x'] }, { channels: [] }], views: ['3d', 'xy'] };
  for (const text of [JSON.stringify(layout), JSON.stringify(layout, null, 2) + '\n']) {
    const { layout: back, problems } = parseLayout(text, KNOWN);
    assert.deepEqual(back, layout);
    assert.deepEqual(problems, []);
  }
});

test('the format is the documented one and a new page starts with one empty 60 s panel', () => {
  assert.equal(FORMAT, 'hilsim.console.layout.v1');
  assert.deepEqual(emptyLayout(), { format: FORMAT, rig: null, window_s: 60, panels: [{ channels: [] }], views: [] });
  const a = emptyLayout();
  a.panels[0].channels.push('vehicle.body.speed');
  assert.deepEqual(emptyLayout().panels, [{ channels: [] }], 'each call a fresh layout');
});

test('layouts are kept per rig, under a key that does not change', () => {
  // a different key would lose every layout users saved in their browsers
  assert.equal(storageKey('ravon'), 'hilsim.layout.ravon');
  assert.notEqual(storageKey('ravon'), storageKey('minimal'));
});

test('a file that is not a layout is refused with the reason', () => {
  const cases = [
    ['{"format": "hilsim.console.layout.v1", "panels": [', /^not JSON: /],
    ['', /^not JSON: /],
    ['null', /"format" must be "hilsim.console.layout.v1"/],
    ['{"format": "hilsim.console.layout.v0", "panels": []}', /"format" must be/],
    ['{"panels": [{"channels": ["vehicle.body.speed"]}]}', /"format" must be/],
    ['{"format": "hilsim.console.layout.v1", "panels": {"channels": []}}', /"panels" must be a list/],
    ['{"format": "hilsim.console.layout.v1"}', /"panels" must be a list/],
  ];
  for (const [text, reason] of cases) {
    const { layout, problems } = parseLayout(text, KNOWN);
    assert.equal(layout, null, text);
    assert.equal(problems.length, 1, text);
    assert.match(problems[0], reason, text);
  }
});

test('channels this run does not have are dropped and named, the others kept in order', () => {
  const text = JSON.stringify({ format: FORMAT, rig: 'ravon', window_s: 60, panels: [
    { channels: ['vehicle.body.speed', 'gone.a', 'env.disturbance.force.x', 'gone.b'] },
    { channels: ['vehicle.body.forward_speed'] }, { channels: ['gone.c'] }] });
  const { layout, problems } = parseLayout(text, KNOWN);
  assert.deepEqual(layout.panels, [
    { channels: ['vehicle.body.speed', 'env.disturbance.force.x'] },
    { channels: ['vehicle.body.forward_speed'] }, { channels: [] }]);
  assert.deepEqual(problems, ['panel 1: no channel gone.a, gone.b in this run',
    'panel 3: no channel gone.c in this run']);
});

test('malformed panels and windows fall back instead of breaking the page', () => {
  const parse = (fields) => parseLayout(JSON.stringify({ format: FORMAT, panels: [], ...fields }), KNOWN).layout;
  assert.deepEqual(parse({ panels: [] }).panels, [{ channels: [] }], 'no panels: one empty panel');
  assert.deepEqual(parse({ panels: [null, 3, { channels: 'vehicle.body.speed' },
    { channels: [7, null, 'vehicle.body.speed', { n: 1 }] }] }).panels,
  [{ channels: [] }, { channels: [] }, { channels: [] }, { channels: ['vehicle.body.speed'] }]);
  assert.equal(parse({}).rig, null, 'no rig: null');
  assert.equal(parse({}).window_s, 60, 'no window: 60 s');
  for (const w of [5, 9.99, 601, 1e9, -60, 'abc', null, true, [], {}]) {
    assert.equal(parse({ window_s: w }).window_s, 60, `window_s ${JSON.stringify(w)}`);
  }
  for (const w of [10, 30, 120, 600, '300']) assert.equal(parse({ window_s: w }).window_s, Number(w));
});

test('views: a layout from before them shows none, unknown ones are named, the order is the page\'s', () => {
  const parse = (fields) => parseLayout(JSON.stringify({ format: FORMAT, panels: [{ channels: [] }], ...fields }), KNOWN);
  assert.deepEqual(parse({}).layout.views, [], 'saved before views existed');
  assert.deepEqual(parse({ views: ['xy', '3d'] }).layout.views, ['3d', 'xy'], 'stacked 3D over XY');
  const { layout, problems } = parse({ views: ['xy', 'map', 7] });
  assert.deepEqual(layout.views, ['xy']);
  assert.deepEqual(problems, ['no view map, 7 (views: 3d, xy)']);
  assert.deepEqual(parse({ views: 'xy' }).layout.views, [], 'not a list: none');
});

test('a panel keeps its title; an empty or non-text title is left out', () => {
  const { layout } = parseLayout(JSON.stringify({ format: FORMAT, panels: [
    { title: 'speed', channels: ['vehicle.body.speed'] }, { title: '', channels: [] }, { title: 7, channels: [] }] }), KNOWN);
  assert.deepEqual(layout.panels, [{ title: 'speed', channels: ['vehicle.body.speed'] }, { channels: [] }, { channels: [] }]);
});
