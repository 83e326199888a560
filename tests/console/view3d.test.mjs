// The console's 3D view in Debian's chromium (WebGL in software: SwiftShader) against a paused
// run of the HMMWV's 60 km/h lane change, stepped through the console to a known tick (docs/api.md
// "Lock-step"): the frame at that tick matches the committed reference image; the cameras switch
// (the image changes, the camera says its mode); scrubbing the time cursor back moves the vehicle
// to the pose of that time, as the page holds it and as the recording has it; resumed, it follows
// the run again; a replay of the recording is followed as a live run is. Nothing is fetched from
// outside the console (three.js is embedded).
//   HILSIM=build/release/tools/hilsim node --test tests/console/view3d.test.mjs
// UPDATE_REFERENCE=1 rewrites tests/console/reference/view3d_hmmwv_chase.png (after a change
// that is meant to change the picture: look at the new one before committing it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { HILSIM, startHilsim } from './hilsim_run.mjs';
import { operatorSocket, stepWithPage } from './lockstep.mjs';
import { GL_ARGS, pixelDifference as pixelDiff, SOFTWARE_COMPOSITING } from './render_check.mjs';

const CHROMIUM = '/usr/bin/chromium';
const REFERENCE = join(import.meta.dirname, 'reference', 'view3d_hmmwv_chase.png');
const TICKS = 40400;  // 10.1 s: in the lane change, steered and rolling, the tire forces large
// A pixel differs when a colour channel differs by more than 48 of 255; the frame matches when
// at most 0.2 % of its pixels (~300 of 480 × 320) differ. Repeated runs here differ in no pixel
// (SwiftShader is deterministic, and the view turns antialiasing off in software); the margin is
// for another CPU's or chromium's rounding at edges. The pose one history row earlier (36 ticks,
// 9 ms: 15 cm back at 60 km/h, the wheels and arrows a little different) differs by 0.55 %.
const PIXEL_DELTA = 48, MAX_DIFFERENT = 0.002;
const pixelDifference = (a, b) => pixelDiff(a, b, PIXEL_DELTA);

const state = (page) => page.evaluate(() => window.__hilsim3d.state());

/// `hilsim export` of the body's pose: {name: Map(tick → value)}.
function recordedPose(runDir, out) {
  execFileSync(HILSIM, ['export', runDir, '--csv', out, '--channels', 'vehicle.body.position.*', 'vehicle.body.roll',
    'vehicle.body.pitch', 'vehicle.body.yaw']);
  const series = {};
  for (const file of readdirSync(out).filter((f) => f.startsWith('vehicle.body'))) {
    const [head, ...rows] = readFileSync(join(out, file), 'utf8').trim().split('\n');
    const names = head.split(',').slice(2);
    names.forEach((n) => (series[n] = new Map()));
    for (const row of rows) {
      const [, tick, ...values] = row.split(',');
      names.forEach((n, k) => series[n].set(Number(tick), Number(values[k])));
    }
  }
  return series;
}

/// The body's quaternion [x, y, z, w] from roll, pitch, yaw: qz(yaw)·qy(pitch)·qx(roll), written
/// out here on its own (not the page's function) as the check.
function quaternion(r, p, y) {
  const c = (a) => Math.cos(a / 2), s = (a) => Math.sin(a / 2);
  return [s(r) * c(p) * c(y) - c(r) * s(p) * s(y), c(r) * s(p) * c(y) + s(r) * c(p) * s(y),
    c(r) * c(p) * s(y) - s(r) * s(p) * c(y), c(r) * c(p) * c(y) + s(r) * s(p) * s(y)];
}
const near = (a, b, eps = 1e-9) => a.length === b.length && a.every((x, i) => Math.abs(x - b[i]) <= eps * Math.max(1, Math.abs(b[i])));

/// The pose the page drew equals the recorded one at its tick.
function assertDrawnPose(drawn, recorded, what) {
  const { tick, position, quaternion: q } = drawn;
  const at = (n) => recorded[`vehicle.body.${n}`].get(tick);
  assert.ok(recorded['vehicle.body.position.x'].has(tick), `${what}: tick ${tick} recorded`);
  assert.ok(near(position, ['position.x', 'position.y', 'position.z'].map(at)), `${what}: position at tick ${tick}: ${position}`);
  const want = quaternion(at('roll'), at('pitch'), at('yaw'));
  const sign = Math.sign(q[3]) === Math.sign(want[3]) ? 1 : -1;  // q and −q are one rotation
  assert.ok(near(q.map((x) => sign * x), want), `${what}: rotation at tick ${tick}: ${q} vs ${want}`);
}

test('the 3D view: a known frame, the cameras, the cursor, the live edge and a replay',
  { skip: !existsSync(CHROMIUM) && 'no chromium', timeout: 180000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hilsim-view3d-'));
    const run = startHilsim(['run', '--rig', 'hmmwv', '--scenario', 'hmmwv_double_lane_change_60', '--speed', 'max',
      '--paused', '--record', join(dir, 'run'), '-q']);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...GL_ARGS, SOFTWARE_COMPOSITING] });
    let replay = null;
    try {
      const { url, token } = await run.ready;
      const op = await operatorSocket(url, token);
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
      const errors = [], foreign = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.route('**/*', (route) => {  // three.js and all comes from the binary, nothing from outside
        if (route.request().url().startsWith(url)) return route.continue();
        foreign.push(route.request().url());
        return route.abort();
      });
      await page.goto(url);
      // a 480 × 320 view, whatever the rest of the page's layout (the reference's size)
      await page.addStyleTag({ content: '#board.with-views { grid-template-columns: minmax(0, 1fr) 482px; } #scene3d { flex: none; height: 320px; }' });
      // the rig's default layout shows the 3D view; both streams subscribed before the run moves
      await page.waitForFunction(() => window.__hilsimMetrics.subscribed.length === 2 && window.__hilsim3d?.state().history);
      const last = await stepWithPage(op, page, TICKS, (t) => window.__hilsim3d.state().history.newest >= t - 3, 1500);
      await page.waitForFunction((t) => window.__hilsim3d.state().vehicle?.tick >= t - 3, last);
      assert.equal(last, TICKS - 1);
      const shown = await state(page);
      assert.equal(shown.vehicle.tick, TICKS - 4, 'the newest console sample (every 4th tick)');
      assert.deepEqual(shown.camera.mode, 'chase');
      assert.ok(shown.vehicle.wheels.some((w) => Math.abs(w.steer) > 0.05), 'the front wheels steer');
      assert.ok(shown.vehicle.wheels.every((w) => w.force), 'every wheel has its force arrow');

      // the known frame against the reference
      await page.waitForTimeout(200);
      const chase = await page.locator('#scene3d').screenshot();
      if (process.env.UPDATE_REFERENCE) writeFileSync(REFERENCE, chase);
      const offReference = pixelDifference(chase, readFileSync(REFERENCE));
      writeFileSync(join(tmpdir(), 'view3d_hmmwv_chase.actual.png'), chase);
      console.log(`the frame at tick ${shown.vehicle.tick}: ${(offReference * 100).toFixed(3)} % of its pixels off the reference`);
      assert.ok(offReference <= MAX_DIFFERENT, `${(offReference * 100).toFixed(2)} % of the pixels differ from ${REFERENCE} ` +
        `(this frame: ${join(tmpdir(), 'view3d_hmmwv_chase.actual.png')})`);
      const again = await page.locator('#scene3d').screenshot();
      assert.equal(pixelDifference(chase, again), 0, 'a paused frame does not change');

      // the cameras: top (orthographic, straight above the vehicle), free (orbit), chase again
      const renders = async () => (await state(page)).renders;
      const camera = async (mode) => {
        const before = await renders();
        await page.selectOption('#camera', mode);
        await page.waitForFunction((n) => window.__hilsim3d.state().renders > n, before);
        return page.locator('#scene3d').screenshot();
      };
      const top = await camera('top');
      let s = await state(page);
      assert.deepEqual([s.camera.mode, s.camera.type], ['top', 'OrthographicCamera']);
      assert.ok(near(s.camera.position.slice(0, 2), s.vehicle.position.slice(0, 2)), 'above the vehicle');
      assert.ok(pixelDifference(top, chase) > 0.2, 'top shows another picture');
      const free = await camera('free');
      s = await state(page);
      assert.deepEqual([s.camera.mode, s.camera.type], ['free', 'PerspectiveCamera']);
      assert.ok(pixelDifference(free, chase) < 0.01, 'free starts where chase was');
      const box = await page.locator('#scene3d').boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.4, { steps: 8 });
      await page.mouse.up();
      await page.waitForTimeout(200);
      const orbited = await state(page);
      assert.ok(!near(orbited.camera.position, s.camera.position, 1e-3), 'dragging orbits the camera');
      assert.ok(near(orbited.camera.target, s.camera.target), 'around the same point');
      assert.ok(pixelDifference(await page.locator('#scene3d').screenshot(), free) > 0.05, 'and the picture turns');
      assert.ok(pixelDifference(await camera('chase'), chase) <= MAX_DIFFERENT, 'chase again: the same frame');

      // scrubbing back: the cursor at 5 s shows the pose of tick 20000, as the page holds it
      await page.$eval('#cursor', (el) => { el.value = '5'; el.dispatchEvent(new Event('input')); });
      await page.waitForFunction(() => window.__hilsim3d.state().vehicle.tick <= 20000);
      const back = (await state(page)).vehicle;
      assert.ok(back.tick <= 20000 && back.tick > 20000 - 40, `the row at or before the cursor (10 ms rows): ${back.tick}`);
      await page.waitForFunction(() => document.getElementById('cursor-time').textContent === '5.000 s');
      const held = await page.evaluate((t) => window.__hilsim3d.held(t), back.tick);
      assert.equal(held.tick, back.tick);
      const v = (n) => held.values[`vehicle.body.${n}`];
      assert.deepEqual(back.position, [v('position.x'), v('position.y'), v('position.z')], 'at the values the page holds');
      const backShot = await page.locator('#scene3d').screenshot();
      assert.ok(pixelDifference(backShot, chase) > 0.01, 'another picture');
      const drawnBack = back;

      // resumed: live again, it follows the run to its newest sample
      await page.click('#pause');
      await page.waitForFunction(() => document.getElementById('cursor-time').textContent === 'live');
      const later = await stepWithPage(op, page, 2000, (t) => window.__hilsim3d.state().history.newest >= t - 3);
      await page.waitForFunction((t) => window.__hilsim3d.state().vehicle.tick >= t - 3, later);
      assert.equal((await state(page)).vehicle.tick, later - 3);
      const drawnLive = (await state(page)).vehicle;

      // the run ends; the recording has the poses the page drew, at their ticks
      await op.call({ type: 'stop' });
      const end = await run.ended;
      assert.equal(end.code, 0, end.err);
      const recorded = recordedPose(join(dir, 'run'), join(dir, 'csv'));
      assertDrawnPose(drawnBack, recorded, 'scrubbed back');
      assertDrawnPose(drawnLive, recorded, 'live');
      assertDrawnPose({ ...shown.vehicle }, recorded, 'the reference frame');

      assert.deepEqual(foreign, [], 'requests left the console');
      await page.unroute('**/*');

      // a replay of the recording, followed as a live run: the pose at each drawn tick is the recorded one
      replay = startHilsim(['replay', join(dir, 'run'), '--speed', '2', '--until', '7s']);
      const r = await replay.ready;
      await page.goto(r.url);
      await page.waitForFunction(() => window.__hilsim3d?.state().vehicle?.tick > 4000, null, { timeout: 20000 });
      const first = (await state(page)).vehicle;
      await page.waitForFunction((t) => window.__hilsim3d.state().vehicle.tick > t + 2000, first.tick, { timeout: 20000 });
      const second = (await state(page)).vehicle;
      assertDrawnPose(first, recorded, 'replay');
      assertDrawnPose(second, recorded, 'replay, later');
      assert.deepEqual(errors, [], 'no page errors');
      op.close();
    } finally {
      await browser.close();
      run.child.kill('SIGKILL');
      replay?.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

test('the 3D view: the scenario\'s objects where their channels say, at the time cursor',
  { skip: !existsSync(CHROMIUM) && 'no chromium', timeout: 120000 }, async () => {
    const run = startHilsim(['run', '--scenario', 'objects_crossing', '--speed', 'max', '--paused', '--no-record', '-q']);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...GL_ARGS, SOFTWARE_COMPOSITING] });
    try {
      const { url, token } = await run.ready;
      const op = await operatorSocket(url, token);
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${url}?tab=3d`);
      await page.waitForFunction(() => window.__hilsimMetrics.subscribed.length === 2 && window.__hilsim3d?.state().history);
      const last = await stepWithPage(op, page, 28000, (t) => window.__hilsim3d.state().history.newest >= t - 3, 1500);
      await page.waitForFunction((t) => window.__hilsim3d.state().vehicle?.tick >= t - 3, last);
      const objectsAt = async () => {
        const s = await state(page);
        const held = await page.evaluate((t) => window.__hilsim3d.held(t), s.vehicle.tick);
        return { s, v: (n) => held.values[n], by: (n) => s.objects.find((o) => o.name === n) };
      };
      // 7 s: the pedestrian crossing (started when the vehicle passed 3 m), the lead vehicle ahead
      let { s, v, by } = await objectsAt();
      assert.deepEqual(s.objects.map((o) => o.name), ['parked_crate', 'lead_vehicle', 'pedestrian']);
      assert.deepEqual(by('parked_crate').position.slice(0, 2), [6, -2.5]);
      assert.ok(Math.abs(by('parked_crate').yaw - 0.1) < 1e-6);
      const walker = by('pedestrian');
      assert.ok(walker.position[1] > -5, `crossing at 7 s: ${walker.position}`);
      assert.deepEqual(walker.position, [v('world.pedestrian.x'), v('world.pedestrian.y'), v('world.pedestrian.z')], 'at its channels');
      assert.ok(by('lead_vehicle').position[0] > 12, `the lead vehicle ahead: ${by('lead_vehicle').position}`);
      // the cursor back at 2 s: the pedestrian waits at its start, the lead vehicle 1 s after its own (9 + a·t²/2)
      await page.$eval('#cursor', (el) => { el.value = '2'; el.dispatchEvent(new Event('input')); });
      await page.waitForFunction(() => window.__hilsim3d.state().vehicle.tick <= 8000);
      ({ s, v, by } = await objectsAt());
      assert.deepEqual(by('pedestrian').position.slice(0, 2), [14, -5]);
      const lead = by('lead_vehicle').position[0];
      assert.equal(lead, v('world.lead_vehicle.x'));
      const t = s.vehicle.tick * 250e-6 - 1;
      assert.ok(Math.abs(lead - (9 + 0.5 * t * t)) < 1e-9, `lead at ${lead}, tick ${s.vehicle.tick}`);
      assert.deepEqual(errors, [], 'no page errors');
      await op.call({ type: 'stop' });
      op.close();
    } finally {
      await browser.close();
      run.child.kill('SIGKILL');
    }
  });
