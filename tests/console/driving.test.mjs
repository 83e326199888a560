// A driver in the loop from the console page (docs/console.md "Driving"), in Debian's chromium
// with navigator.getGamepads stubbed: the operator arms driving, the pad's A takes the wheel, the
// right trigger and the stick held left make RAVON go faster than the scenario's 1 m/s and turn
// left; the keyboard's right arrow turns it right and H gives the wheel back (AUTO, every driver
// channel released). A viewer cannot drive (refused in the server's words), nor can a second
// operator while the first holds the lock. commands.log holds the inputs and the run replays
// identically.
//   HILSIM=build/release/tools/hilsim node --test tests/console/driving.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { chromium } from 'playwright-core';
import { HILSIM, startHilsim, until } from './hilsim_run.mjs';

const CHROMIUM = '/usr/bin/chromium';

/// A gamepad the test moves: window.__pad (the Gamepad API's standard mapping, 4 axes, 17 buttons).
function stubGamepad() {
  const buttons = Array.from({ length: 17 }, () => ({ value: 0, pressed: false }));
  window.__pad = { id: 'stub pad (STANDARD GAMEPAD)', index: 0, connected: true, mapping: 'standard', axes: [0, 0, 0, 0], buttons };
  window.__press = (i, value) => { buttons[i] = { value, pressed: value > 0.5 }; };
  Object.defineProperty(navigator, 'getGamepads', { value: () => [window.__pad], configurable: true });
}

async function snapshot(url) {
  return (await (await fetch(`${url}api/snapshot`)).json()).values;
}

/// Waits until the run's snapshot meets `what` (at most `ms`); returns the values.
async function untilValues(url, what, ms = 20000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await snapshot(url);
    if (what(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last values: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('driving from the page: a gamepad and the keyboard, the lock, recorded and replayed', { skip: !existsSync(CHROMIUM) && 'no chromium', timeout: 180000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hilsim-driving-'));
  const run = startHilsim(['run', '--no-rt', '--duration', '90s', '--record', join(dir, 'run'), '-q']);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const { url, token } = await run.ready;
    const context = await browser.newContext();
    await context.addInitScript(stubGamepad);
    const op = await context.newPage();
    await op.goto(`${url}?token=${token}&tab=op`);
    await op.waitForFunction(() => !document.getElementById('drive-on').disabled);

    // a viewer's page cannot drive; its raw message is refused in the server's words
    const viewer = await browser.newPage();
    await viewer.goto(`${url}?tab=op`);
    await viewer.waitForFunction(() => document.getElementById('drive-hint').textContent.includes('operator token'));
    assert.equal(await viewer.locator('#drive-on').isDisabled(), true);
    const raw = new WebSocket(url.replace('http:', 'ws:') + 'ws', ['hilsim.console.v1']);
    const replies = [];
    raw.on('message', (d, binary) => !binary && replies.push(JSON.parse(d.toString())));
    await new Promise((r) => raw.on('open', r));
    raw.send(JSON.stringify({ type: 'drive', req: 5, mode: 'human' }));
    await until(() => replies.some((m) => m.req === 5));
    assert.match(replies.find((m) => m.req === 5).message, /driving needs the operator token/);
    raw.close();

    // A takes the wheel; the right trigger floored: faster than the scenario's 1 m/s
    await op.check('#drive-on');
    await op.evaluate(() => window.__press(0, 1));
    await op.waitForFunction(() => /^HUMAN/.test(document.getElementById('drive-mode').textContent));
    await op.evaluate(() => { window.__press(0, 0); window.__press(7, 1); });
    const fast = await untilValues(url, (v) => v['vehicle.body.forward_speed'] > 1.2);
    assert.equal(fast['driver.mode'], 1);
    assert.equal(fast['driver.throttle'], 1);
    assert.equal(fast['driver.steer'], 0);
    // the stick held left: it turns left
    await op.evaluate(() => { window.__pad.axes[0] = -1; });
    await op.waitForFunction(() => /steer 1 · throttle 1/.test(document.getElementById('drive-mode').textContent));
    await untilValues(url, (v) => v['vehicle.body.yaw_rate'] > 0.1);

    // a second operator waits for the lock: its drive is refused and its page stops driving
    const other = await (await browser.newContext()).newPage();
    await other.addInitScript(stubGamepad);
    await other.goto(`${url}?token=${token}&tab=op`);
    await other.waitForFunction(() => !document.getElementById('drive-on').disabled);
    await other.click('#drive-take');
    await other.waitForFunction(() => /refused: the operator lock is held by/.test(document.getElementById('drive-mode').textContent));
    assert.equal(await other.isChecked('#drive-on'), false);
    await other.close();

    // the keyboard: the gamepad let go, the right arrow held: it turns right
    await op.evaluate(() => { window.__press(7, 0); window.__pad.axes[0] = 0; });
    await op.focus('#drive-on');  // keys on the checkbox drive; in a text field they type
    await op.keyboard.down('ArrowRight');
    await op.keyboard.down('ArrowUp');
    await untilValues(url, (v) => v['vehicle.body.yaw_rate'] < -0.1 && v['driver.steer'] === -1);
    await op.keyboard.up('ArrowRight');
    await op.keyboard.up('ArrowUp');
    // H gives the wheel back: AUTO, nothing of the driver's left forced
    await op.keyboard.press('KeyH');
    await op.waitForFunction(() => /^AUTO/.test(document.getElementById('drive-mode').textContent));
    await untilValues(url, (v) => v['driver.mode'] === 0 && v['driver.steer'] === 0 && v['driver.throttle'] === 0);

    const stop = await fetch(`${url}api/stop`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    assert.ok(stop.ok, `stop: ${stop.status}`);
    const ended = await run.ended;
    assert.ok(ended.code === 0 || ended.code === 4, ended.err);  // 4: the lane gates judged the driver

    const log = readFileSync(join(dir, 'run', 'commands.log'), 'utf8').trim().split('\n').map((l) => l.replace(/^\d+ /, ''));
    for (const line of ['write driver.mode 1', 'write driver.throttle 1', 'write driver.steer 1',
      'write driver.steer -1', 'release driver.steer', 'release driver.throttle']) {
      assert.ok(log.includes(line), `${line} in commands.log`);
    }
    assert.equal(log.at(-1), 'release driver.mode');
    assert.ok(log.filter((l) => l.startsWith('write driver.steer ')).length > 5, 'the stick ramps at its rate limit');

    const replay = execFileSync(HILSIM, ['replay', join(dir, 'run')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.match(replay, /^identical: /m);
  } finally {
    await browser.close();
    run.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
