// The console page's views in Debian's chromium against a real run of a test scenario with a
// one-tick spike: stacked panels, the spike visible in a 60 s window, pause (identical
// screenshots) and resume, zoom, pan and reset, CSV export byte-equal to `hilsim export` for
// the same ticks, the CAN view, the XY course, layout export and import, both themes.
//   HILSIM=build/release/tools/hilsim node --test tests/console/views.test.mjs
// SCREENSHOTS=docs/img refreshes the documentation's screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { HILSIM, startHilsim } from './hilsim_run.mjs';
import { FaultNames, controlName, controlOf, cycleFault, e2eClass, e2eText, faultEvent, freshName, nodeOffFault,
  nodeText, offFault, parseCycle, rowTitle } from '../../io/console/web/src/canview.js';

const CHROMIUM = '/usr/bin/chromium';
const drawn = (page) => page.evaluate(() => window.__hilsimMetrics.drawn);

async function plot(page, name) {
  await page.fill('#filter', name);
  await page.click(`#channels tr[data-name="${name}"]`);
}

function exportCsv(dir, channel) {  // `hilsim export` of one channel: {tick: [time_s, value]}
  const out = join(dir, `export-${channel}`);
  execFileSync(HILSIM, ['export', join(dir, 'run'), '--csv', out, '--channels', channel]);
  const group = channel.split('.').slice(0, -1).join('.');
  const lines = readFileSync(join(out, `${group}.csv`), 'utf8').trim().split('\n');
  assert.equal(lines[0], `time_s,tick,${channel}`);
  return new Map(lines.slice(1).map((l) => { const [t, k, v] = l.split(','); return [k, [t, v]]; }));
}

// ---- the CAN view's rest-bus controls, DOM-free (canview.js) ----

test('the CAN view\'s controls are faults until cleared, named after what they control', () => {
  assert.equal(controlName('off', 'body', 'ABS_Status'), 'off body/ABS_Status');
  assert.equal(controlName('node off', 'body', 'ABS'), 'node off body/ABS');
  assert.deepEqual(offFault('body', 'GW_Time', 'off body/GW_Time'),
    { name: 'off body/GW_Time', message: { bus: 'body', name: 'GW_Time', drop: {} } });
  assert.deepEqual(cycleFault('body', 'EMS_Torque', 50, 'cycle body/EMS_Torque'),
    { name: 'cycle body/EMS_Torque', message: { bus: 'body', name: 'EMS_Torque', cycle: { ms: 50 } } });
  assert.deepEqual(nodeOffFault('body', 'ABS', 'node off body/ABS'),
    { name: 'node off body/ABS', bus: { name: 'body', node: 'ABS', silence: {} } });
  for (const f of [offFault('b', 'm', 'x'), cycleFault('b', 'm', 1, 'x'), nodeOffFault('b', 'n', 'x')]) {
    assert.equal('stop' in f, false, 'no stop: until cleared');
  }
});

test('a run never takes a fault name twice: a control\'s second fault is "#2"', () => {
  assert.equal(freshName('off body/X', new Set()), 'off body/X');
  assert.equal(freshName('off body/X', new Set(['off body/X'])), 'off body/X #2');
  assert.equal(freshName('off body/X', new Set(['off body/X', 'off body/X #2'])), 'off body/X #3');
  assert.equal(controlOf('off body/X #12'), 'off body/X');
  assert.equal(controlOf('off body/X'), 'off body/X');
  assert.equal(controlOf('node off body/ABS'), 'node off body/ABS');
});

test('the cycle field: ms, empty to clear, anything else refused', () => {
  assert.equal(parseCycle('50'), 50);
  assert.equal(parseCycle(' 12.5 '), 12.5);
  assert.equal(parseCycle(''), null);
  assert.equal(parseCycle('  '), null);
  for (const bad of ['0', '-5', 'abc', '1e999', 'NaN']) assert.equal(parseCycle(bad), undefined, bad);
});

test('fault events say which control is on; the page\'s own requests count until they are refused', () => {
  assert.deepEqual(faultEvent("fault 'node off body/ABS' on: silence of node ABS on body"), { name: 'node off body/ABS', on: true });
  assert.deepEqual(faultEvent("fault 'off body/GW_Time' off"), { name: 'off body/GW_Time', on: false });
  assert.equal(faultEvent("gate 'x' passed at 1 s"), null);
  assert.equal(faultEvent(undefined), null);

  const f = new FaultNames();
  assert.equal(f.onEvent({ kind: 'gate', text: "fault 'x' on: y" }), false, 'only fault events');
  // a fault of this control from before (another page, or this one before a reload)
  f.onEvent({ kind: 'fault', text: "fault 'off body/GW_Time' on: drop of GW_Time on body" });
  assert.ok(f.isOn('off body/GW_Time'));
  assert.deepEqual(f.stop('off body/GW_Time'), ['off body/GW_Time']);
  assert.ok(!f.isOn('off body/GW_Time'));
  // on again: a new name
  assert.equal(f.start('off body/GW_Time'), 'off body/GW_Time #2');
  assert.ok(f.isOn('off body/GW_Time'));
  f.onEvent({ kind: 'fault', text: "fault 'off body/GW_Time #2' off" });
  assert.ok(!f.isOn('off body/GW_Time'), 'stopped elsewhere (cleared by another page)');
  // refused: not on, and its name is not taken again
  assert.equal(f.start('cycle body/GW_Time'), 'cycle body/GW_Time');
  f.refused('cycle body/GW_Time');
  assert.ok(!f.isOn('cycle body/GW_Time'));
  assert.equal(f.start('cycle body/GW_Time'), 'cycle body/GW_Time #2');
  assert.deepEqual(f.of('node off body/ABS'), []);
});

test('the CAN view\'s columns of a rest bus: node, E2E and its status, the send plan', () => {
  const sim = { name: 'ABS_Status', node: 'ABS', dut: false, e2e: 'P11', e2e_status: null, send: 'cyclic 50 ms',
    signals: [{ name: 'ABS_Mode', channel: 'can.body.abs_status.abs_mode' }] };
  const dut = { name: 'EPS_SteerTorque', node: '', dut: true, e2e: 'P05', e2e_status: 'NODATA', send: null, signals: [] };
  const plain = { name: 'HIL_Imu', node: '', dut: false, e2e: null, e2e_status: null, send: 'cyclic 10 ms', signals: [] };
  assert.deepEqual([sim, dut, plain].map(nodeText), ['ABS', 'DUT', '']);
  assert.deepEqual([sim, dut, plain].map(e2eText), ['P11', 'P05 NODATA', '']);
  assert.equal(rowTitle(sim), 'send: cyclic 50 ms\nsent for node ABS (rest-bus simulation)\nABS_Mode ↔ can.body.abs_status.abs_mode');
  assert.equal(rowTitle(dut), 'sent by the device under test: checked');
  assert.deepEqual(['OK', null, undefined, 'REPEATED', 'WRONG_SEQUENCE', 'NODATA', 'ERROR'].map(e2eClass),
    ['', '', '', 'warn', 'warn', 'warn', 'error']);
});

test('the console page\'s views', { skip: !existsSync(CHROMIUM) && 'no chromium', timeout: 240000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hilsim-views-'));
  const run = startHilsim(['run', '--scenario', join(import.meta.dirname, 'spike_lane_change.pbtxt'),
    '--record', join(dir, 'run'), '-q']);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const { url, token } = await run.ready;
    const page = await browser.newPage({ viewport: { width: 1400, height: 1150 }, acceptDownloads: true });
    await page.goto(`${url}?token=${token}&layout=blank`);  // one empty panel, not the rig's default
    await page.waitForFunction(() => document.getElementById('run').textContent.includes('spike_lane_change'));

    // two stacked panels: the speed in the first, the spiked input in a second
    await plot(page, 'vehicle.body.speed');
    await plot(page, 'vehicle.body.forward_speed');
    await page.click('#add-panel');
    await plot(page, 'env.disturbance.force.x');
    assert.equal(await page.locator('#panels .panel').count(), 2);
    assert.equal(await page.locator('#panels .panel:nth-child(1) .u-legend .u-series').count(), 7, 'x + 2 × (value, max, min)');

    // the one-tick spike, off the sample grid, is drawn in the 60 s window
    await page.waitForFunction(() => Number(document.getElementById('sim').textContent) > 7);
    await page.waitForFunction(() => window.__hilsimMetrics.drawn.length === 2);
    const d = (await drawn(page))[1];
    assert.equal(d.t1 - d.t0, 60, 'a 60 s window');
    const max = Math.max(...d.data[2].filter((x) => x !== null));
    const value = Math.max(...d.data[1].filter((x) => x !== null));
    assert.equal(max, 300, 'the spike is in the min/max envelope');
    assert.equal(value, 0, 'the sampled values miss it (it is off the 1 kHz grid)');

    // a gate decided during the run is in the event log with its time
    await page.waitForFunction(() => /gate 'holds 1 m\/s' passed at \d/.test(document.getElementById('events').textContent));

    // a fault's start and stop are in the event log
    await page.waitForFunction(() => /fault 'imu lost' off/.test(document.getElementById('events').textContent));
    assert.match(await page.textContent('#events'), /tick 24000: fault 'imu lost' on: drop of HIL_Imu on ecu/);

    // a 60 s backfill on subscribing and the live stream: nothing dropped for a page that reads
    assert.equal(await page.textContent('#console-drops'), 'console drops 0');

    // pause: the plots stop (identical screenshots); resume: they move again
    await page.click('#pause');
    await page.waitForTimeout(300);
    const a = await page.locator('#panels').screenshot();
    await page.waitForTimeout(800);
    const b = await page.locator('#panels').screenshot();
    assert.ok(a.equals(b), 'paused plots do not change');

    // zoom by dragging, pan, reset
    const box = await page.locator('#panels .panel:nth-child(1) .u-over').boundingBox();
    const [r0, r1] = await page.evaluate(() => [window.__hilsimMetrics.drawn[0].t0, window.__hilsimMetrics.drawn[0].t1]);
    await page.mouse.move(box.x + box.width * 0.02, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.12, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.waitForTimeout(200);
    let z = (await drawn(page))[0];
    assert.ok(z.t1 - z.t0 < (r1 - r0) / 5, `zoomed to ${z.t0}..${z.t1}`);
    assert.deepEqual([(await drawn(page))[1].t0, (await drawn(page))[1].t1], [z.t0, z.t1], 'panels share the x range');
    const width = z.t1 - z.t0;
    await page.click('#pan-right');
    await page.waitForTimeout(200);
    const p = (await drawn(page))[0];
    assert.ok(Math.abs(p.t0 - (z.t0 + width / 2)) < 1e-9, 'pan moves half a window');

    // CSV of the shown (zoomed, panned) range equals `hilsim export` for the same ticks
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
    const csv = readFileSync(await download.path(), 'utf8');
    const rows = csv.trim().split('\n');
    assert.equal(rows[0], 'time_s,tick,vehicle.body.speed,vehicle.body.forward_speed,env.disturbance.force.x');
    assert.ok(rows.length > 100, `${rows.length} rows`);

    await page.click('#reset-zoom');
    await page.waitForTimeout(200);
    z = (await drawn(page))[0];
    assert.equal(z.t1 - z.t0, 60, 'reset: the window again');
    await page.click('#pause');
    await page.waitForTimeout(800);
    const c = await page.locator('#panels').screenshot();
    assert.ok(!a.equals(c), 'resumed plots move');

    // the CAN view: every message of the rig with its last data and measured cycle
    await page.click('#tab-can');
    await page.waitForFunction(() => [...document.querySelectorAll('#can-table tbody tr')].some((r) => r.cells[4].textContent !== '—'));
    const can = await page.$$eval('#can-table tbody tr', (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
    assert.ok(can.length >= 2, `${can.length} CAN messages`);
    for (const row of can) {
      assert.match(row[4], /^([0-9a-f]{2} ?)+$/, `${row[2]}: last data`);
      const [measured, dbc] = row[5].split(' / ').map(Number);
      if (Number.isFinite(dbc)) assert.ok(Math.abs(measured - dbc) <= 0.1 * dbc, `${row[2]}: cycle ${row[5]}`);
    }

    // layouts: export, change, import back
    const [layoutFile] = await Promise.all([page.waitForEvent('download'), page.click('#export-layout')]);
    const layout = JSON.parse(readFileSync(await layoutFile.path(), 'utf8'));
    assert.deepEqual(layout.panels.map((x) => x.channels),
      [['vehicle.body.speed', 'vehicle.body.forward_speed'], ['env.disturbance.force.x']]);
    await page.click('#panels .panel:nth-child(2) .panel-head button');
    assert.equal(await page.locator('#panels .panel').count(), 1);
    await page.setInputFiles('#layout-file', await layoutFile.path());
    await page.waitForFunction(() => document.querySelectorAll('#panels .panel').length === 2);

    // XY with the course, and both themes
    await page.click('#tab-xy');
    await page.waitForTimeout(500);
    const shots = process.env.SCREENSHOTS ?? dir;
    const light = await page.screenshot({ path: join(shots, 'console-light.png') });
    await page.click('#theme');
    await page.click('#tab-can');
    await page.waitForTimeout(700);
    const dark = await page.screenshot({ path: join(shots, 'console-dark.png') });
    assert.ok(!light.equals(dark));
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(21, 24, 28)');

    console.log(`at the end: ${await page.textContent('#console-drops')} (${await page.getAttribute('#console-drops', 'title')})`);

    // end the run and compare the CSV with the recording
    page.on('dialog', (dlg) => dlg.accept());
    await page.click('#stop');
    const end = await run.ended;
    assert.equal(end.code, 0, end.err);
    const speed = exportCsv(dir, 'vehicle.body.speed');
    const forward = exportCsv(dir, 'vehicle.body.forward_speed');
    const force = exportCsv(dir, 'env.disturbance.force.x');
    for (const row of rows.slice(1)) {
      const [t, k, ...v] = row.split(',');
      assert.ok(speed.has(k), `tick ${k} recorded`);
      assert.equal([t, ...v].join(','), [speed.get(k)[0], speed.get(k)[1], forward.get(k)[1], force.get(k)[1]].join(','), `tick ${k}`);
    }
    const ticks = rows.slice(1).map((r) => Number(r.split(',')[1]));
    const inRange = [...speed.keys()].map(Number).filter((k) => k >= ticks[0] && k <= ticks.at(-1));
    assert.deepEqual(inRange, ticks, 'the same ticks as the recording');
  } finally {
    await browser.close();
    run.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
