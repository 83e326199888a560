// The CAN view as the rest-bus simulation's run-time control (Debian's chromium), against RAVON
// with the body bus of tests/tools/restbus (11 simulated nodes, EPS the device under test): each
// message's node, send plan and E2E, a viewer without controls; the operator silences node ABS,
// turns GW_VehicleSpeed off and on again and sends EMS_EngineSpeed every 50 ms instead of 10 —
// each a fault until cleared. After the run, commands.log has the faults and can.log shows them
// at their ticks (ABS's frames stop, GW_VehicleSpeed's pause, EMS_EngineSpeed's cycle grows); the
// run replays identically.
//   HILSIM=build/release/tools/hilsim node --test tests/console/restbus.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { HILSIM, startHilsim } from './hilsim_run.mjs';

const CHROMIUM = '/usr/bin/chromium';
const OVERLAY = join(import.meta.dirname, '..', 'tools', 'restbus', 'restbus.pbtxt');
// ids in tests/tools/restbus/vehicle.dbc
const ABS = new Set([0x0C0, 0x0C4, 0x1A0, 0x0C8, 0x6A0]);  // ABS_WheelSpeeds … ABS_Diag
const GW_VEHICLE_SPEED = 0x100;  // 20 ms
const EMS_ENGINE_SPEED = 0x110;  // 10 ms

const row = (message, dir = 'tx') => `#can-table tr[data-message="${message}"][data-dir="${dir}"]`;
const events = (page, re) => page.waitForFunction((src) => new RegExp(src).test(document.getElementById('events').textContent), re.source);

/// can.log's frames of one bus: {tick, id} (tick k at start_epoch_ns + k·period_ns, µs there).
function frames(dir, bus) {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const start = BigInt(manifest.start_epoch_ns) / 1000n, period = manifest.period_ns / 1000;
  const out = [];
  for (const line of readFileSync(join(dir, 'can.log'), 'utf8').split('\n')) {
    const m = /^\((\d+)\.(\d{6})\) (\S+) ([0-9A-F]+)#/.exec(line);
    if (!m || m[3] !== bus) continue;
    const us = BigInt(m[1]) * 1000000n + BigInt(m[2]) - start;
    out.push({ tick: Math.round(Number(us) / period), id: parseInt(m[4], 16) });
  }
  return out;
}

/// commands.log: the tick of the line matching `re`.
function tickOf(log, re) {
  const line = log.split('\n').find((l) => re.test(l));
  assert.ok(line, `commands.log has ${re}:\n${log}`);
  return Number(line.split(' ')[0]);
}

test('the CAN view controls the rest bus: node off, message off and on, another cycle; the run replays',
  { skip: !existsSync(CHROMIUM) && 'no chromium', timeout: 180000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hilsim-restbus-'));
    const run = startHilsim(['run', '--rig', 'ravon', '--overlay', OVERLAY, '--scenario', 'none', '--no-rt',
      '--duration', '60s', '--record', join(dir, 'run'), '-q']);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const { url, token } = await run.ready;

      // a viewer sees the rest bus but has no controls
      const viewer = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
      await viewer.goto(`${url}?tab=can&layout=blank`);  // the CAN view without the rig's default plots and 3D
      await viewer.waitForSelector(`${row('ABS_Status')} button.node-off`);
      assert.ok(await viewer.isDisabled(`${row('ABS_Status')} button.node-off`));
      assert.ok(await viewer.isDisabled(`${row('ABS_Status')} button.msg-off`));

      const op = await (await browser.newContext({ viewport: { width: 1600, height: 1000 } })).newPage();
      await op.goto(`${url}?token=${token}&tab=can&layout=blank`);
      await op.waitForSelector(`${row('ABS_Status')} button.node-off:not([disabled])`);
      // 49 messages sent for 11 nodes, 4 of the device under test received and checked
      const body = await op.$$eval('#can-table tbody tr[data-bus="body"]', (rs) => rs.map((r) => ({
        name: r.dataset.message, dir: r.dataset.dir, node: r.querySelector('td.node').firstChild.textContent.trim(),
        e2e: r.querySelector('td.e2e').textContent, e2eClass: r.querySelector('td.e2e').className, title: r.title })));
      assert.equal(body.filter((m) => m.dir === 'tx').length, 49);
      assert.equal(new Set(body.filter((m) => m.dir === 'tx').map((m) => m.node)).size, 11);
      assert.deepEqual(body.filter((m) => m.dir === 'rx').map((m) => m.node), ['DUT', 'DUT', 'DUT', 'DUT']);
      const byName = new Map(body.map((m) => [m.name, m]));
      assert.equal(byName.get('ABS_Status').node, 'ABS');
      assert.equal(byName.get('ABS_Status').e2e, 'P11');
      assert.match(byName.get('ABS_Status').title, /^send: cyclic 50 ms/);
      assert.match(byName.get('ABS_Status').title, /ABS_Mode ↔ can\.body\.abs_status\.abs_mode/);
      // nothing sends EPS's frames here: its E2E check has no data, in amber
      await op.waitForFunction((sel) => document.querySelector(`${sel} td.e2e`).textContent === 'P05 NODATA', row('EPS_SteerTorque', 'rx'));
      assert.equal(await op.getAttribute(`${row('EPS_SteerTorque', 'rx')} td.e2e`, 'class'), 'e2e warn');

      // the catalogue: a node to silence, a data id to get wrong (only messages sent with E2E)
      await op.click('#tab-op');
      await op.selectOption('#fault-kind', 'silence a node');
      await op.waitForFunction(() => [...document.querySelectorAll('#fault-target option')].some((o) => o.value === 'body/ABS'));
      await op.selectOption('#fault-kind', 'wrong E2E data id (value)');
      const e2eTargets = await op.$$eval('#fault-target option', (os) => os.map((o) => o.value));
      assert.ok(e2eTargets.includes('body/ABS_Status') && !e2eTargets.includes('body/GW_Time'), e2eTargets.join());
      await op.click('#tab-can');

      // node ABS off: every ABS row shows it, on both pages
      await op.click(`${row('ABS_WheelSpeeds')} button.node-off`);
      await events(op, /fault 'node off body\/ABS' on: /);
      for (const page of [op, viewer]) {
        await page.waitForFunction((sel) => document.querySelector(`${sel} button.node-off`).classList.contains('on'), row('ABS_Diag'));
      }
      assert.ok(await op.$eval(row('ABS_Status'), (r) => r.classList.contains('silenced')));
      assert.ok(!(await op.$eval(row('ESP_Status'), (r) => r.classList.contains('silenced'))));

      // GW_VehicleSpeed off, and on again after a while
      await op.click(`${row('GW_VehicleSpeed')} button.msg-off`);
      await events(op, /fault 'off body\/GW_VehicleSpeed' on: /);
      assert.ok(await op.$eval(`${row('GW_VehicleSpeed')} button.msg-off`, (b) => b.classList.contains('on')));
      await op.waitForTimeout(500);
      await op.click(`${row('GW_VehicleSpeed')} button.msg-off`);
      await events(op, /fault 'off body\/GW_VehicleSpeed' off/);
      await op.waitForFunction((sel) => !document.querySelector(`${sel} button.msg-off`).classList.contains('on'), row('GW_VehicleSpeed'));

      // EMS_EngineSpeed every 50 ms: the view measures it
      await op.fill(`${row('EMS_EngineSpeed')} input.cycle`, '50');
      await op.press(`${row('EMS_EngineSpeed')} input.cycle`, 'Enter');
      await events(op, /fault 'cycle body\/EMS_EngineSpeed' on: /);
      await op.waitForFunction((sel) => /^5\d\.\d \/ 10\.0$/.test(document.querySelector(sel).cells[5].textContent), row('EMS_EngineSpeed'), { timeout: 10000 });
      await op.waitForTimeout(500);

      run.child.kill('SIGINT');
      const end = await run.ended;
      assert.equal(end.code, 0, end.err);

      const runDir = join(dir, 'run');
      const log = readFileSync(join(runDir, 'commands.log'), 'utf8');
      const nodeOff = tickOf(log, / fault name: "node off body\/ABS" .*node: "ABS"/);
      const gwOff = tickOf(log, / fault name: "off body\/GW_VehicleSpeed" .*drop/);
      const gwOn = tickOf(log, / clear off body\/GW_VehicleSpeed$/);
      const cycle = tickOf(log, / fault name: "cycle body\/EMS_EngineSpeed" .*cycle \{ ms: 50 \}/);
      assert.ok(nodeOff < gwOff && gwOff < gwOn && gwOn < cycle, log);

      const sent = frames(runDir, 'body');
      const last = sent.at(-1).tick;
      // ABS: sent until the fault's tick, never after
      const abs = sent.filter((f) => ABS.has(f.id));
      assert.ok(abs.some((f) => f.tick <= nodeOff && f.tick > nodeOff - 60), 'ABS_WheelSpeeds sent up to the fault (10 ms = 40 ticks)');
      assert.deepEqual(abs.filter((f) => f.tick > nodeOff), [], 'no ABS frame after the node went off');
      assert.ok(sent.some((f) => f.tick > nodeOff && f.id === 0x0D0), 'ESP goes on');
      // GW_VehicleSpeed: a gap from the drop to the clear, then every 20 ms again
      const gw = sent.filter((f) => f.id === GW_VEHICLE_SPEED).map((f) => f.tick);
      assert.deepEqual(gw.filter((t) => t > gwOff && t <= gwOn), [], 'no GW_VehicleSpeed while off');
      assert.ok(gw.some((t) => t <= gwOff && t > gwOff - 100), 'sent up to the drop (20 ms = 80 ticks)');
      const resumed = gw.filter((t) => t > gwOn);
      assert.ok(resumed.length > 3 && resumed[0] - gwOn <= 100, `sent again after the clear at ${gwOn}: ${resumed.slice(0, 3)}`);
      // EMS_EngineSpeed: every 40 ticks before the fault, every 200 from it
      const ems = sent.filter((f) => f.id === EMS_ENGINE_SPEED).map((f) => f.tick);
      const gaps = (ts) => ts.slice(1).map((t, i) => t - ts[i]);
      assert.deepEqual([...new Set(gaps(ems.filter((t) => t <= cycle)))], [40], 'the DBC cycle before');
      const after = ems.filter((t) => t > cycle + 200);
      assert.ok(after.length >= 2 && last - cycle > 400, `${after.length} frames after the cycle change`);
      assert.deepEqual([...new Set(gaps(after))], [200], 'every 50 ms after');

      const replay = execFileSync(HILSIM, ['replay', runDir, '--console', 'off', '-q']).toString();
      assert.match(replay, /^identical/m);
    } finally {
      await browser.close();
      run.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
