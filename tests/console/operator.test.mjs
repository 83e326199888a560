// The console page in operator mode (Debian's chromium): an input forced from the channel
// browser shows in every event log with the tick it was applied at and in the channel's live
// value; released, it goes back; a viewer's page has no such controls. The operator pane: entry
// with steps and slider, range refusals, limits colouring values, a fault from the catalogue,
// a marker, a triggered capture saved as CSV, a second operator waiting for the lock, and the
// run all this steered replaying identically.
//   HILSIM=build/release/tools/hilsim node --test tests/console/operator.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { HILSIM, startHilsim } from './hilsim_run.mjs';

const CHROMIUM = '/usr/bin/chromium';

test('force and release an input from the page', { skip: !existsSync(CHROMIUM) && 'no chromium', timeout: 120000 }, async () => {
  const run = startHilsim(['run', '--no-rt', '--duration', '60s', '--no-record', '-q']);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const { url, token } = await run.ready;
    const viewer = await browser.newPage();
    await viewer.goto(url);
    await viewer.waitForFunction(() => document.querySelectorAll('#channels tr').length > 100);
    assert.equal(await viewer.locator('#channels button.force').count(), 0, 'a viewer cannot write');

    const op = await (await browser.newContext()).newPage();
    await op.goto(`${url}?token=${token}`);
    await op.waitForFunction(() => document.querySelectorAll('#channels button.force').length > 10);
    await op.fill('#filter', 'env.wind.speed');
    op.once('dialog', (d) => d.accept('7.25'));
    await op.click('#channels tr[data-name="env.wind.speed"] button.force');
    // in every page's event log, with its tick; in the live value
    for (const page of [op, viewer]) {
      await page.waitForFunction(() => /tick \d+: operator: write env.wind.speed 7.25/.test(document.getElementById('events').textContent));
    }
    await op.waitForFunction(() => document.querySelector('#channels tr[data-name="env.wind.speed"] td.v').textContent === '7.25000');
    await op.click('#channels tr[data-name="env.wind.speed"] button.release');
    await viewer.waitForFunction(() => /operator: release env.wind.speed/.test(document.getElementById('events').textContent));
    // nothing else sets the wind: it is back at its value before the force
    await op.waitForFunction(() => document.querySelector('#channels tr[data-name="env.wind.speed"] td.v').textContent === '0.00000');
  } finally {
    await browser.close();
    run.child.kill('SIGKILL');
  }
});

test('the operator pane: entry and steps, limits, faults from the catalogue, markers, a triggered capture, the lock; the run replays', { skip: !existsSync(CHROMIUM) && 'no chromium', timeout: 120000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hilsim-operator-'));
  const run = startHilsim(['run', '--no-rt', '--duration', '60s', '--record', join(dir, 'run'), '-q']);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const { url, token } = await run.ready;
    const op = await (await browser.newContext({ acceptDownloads: true })).newPage();
    await op.goto(`${url}?token=${token}&tab=op&layout=blank`);  // plots (and captures) only what the test adds
    await op.waitForFunction(() => document.querySelectorAll('#op-channel option').length > 10);
    await op.waitForFunction(() => document.querySelectorAll('#fault-kind option').length > 5);

    // a limit on the wind: the value cell goes red once it leaves [0, 5]
    await op.selectOption('#limit-channel', 'env.wind.speed');
    await op.fill('#limit-low', '0');
    await op.fill('#limit-high', '5');
    await op.click('#limit-set');
    await op.fill('#filter', 'env.wind.speed');

    // numeric entry with steps: 0 + 10 × 0.1 + 100 × 0.1 = 11 (within the wind's range 0..120)
    await op.selectOption('#op-channel', 'env.wind.speed');
    await op.fill('#op-step', '0.1');
    await op.fill('#op-value', '0');
    await op.click('#op-input button[data-step="10"]');
    await op.click('#op-input button[data-step="100"]');
    assert.equal(await op.inputValue('#op-value'), '11');
    assert.equal(await op.inputValue('#op-slider'), '11');
    await op.click('#op-set');
    await op.waitForFunction(() => /tick \d+: operator: write env.wind.speed 11/.test(document.getElementById('events').textContent));
    await op.waitForFunction(() => document.querySelector('#channels tr[data-name="env.wind.speed"] td.v').textContent === '11.0000');
    await op.waitForFunction(() => document.querySelector('#channels tr[data-name="env.wind.speed"] td.v').classList.contains('limit-outside'));
    // out of range: refused in the server's words
    await op.fill('#op-value', '500');
    await op.click('#op-set');
    await op.waitForFunction(() => /refused: env.wind.speed = 500 m\/s is outside its range \[0, 120\]/.test(document.getElementById('events').textContent));
    await op.click('#op-release');
    await op.waitForFunction(() => /operator: release env.wind.speed/.test(document.getElementById('events').textContent));
    await op.waitForFunction(() => document.querySelector('#channels tr[data-name="env.wind.speed"] td.v').classList.contains('limit-near'));

    // a fault from the catalogue, on a message the rig receives; its on and off in the log
    await op.selectOption('#fault-kind', 'drop frames');
    await op.waitForFunction(() => [...document.querySelectorAll('#fault-target option')].some((o) => o.value === 'ecu/ECU_SpeedRef'));
    await op.selectOption('#fault-target', 'ecu/ECU_SpeedRef');
    await op.fill('#fault-duration', '0.3');
    await op.click('#fault-inject');
    await op.waitForFunction(() => /tick \d+: operator: fault name: "drop frames ecu\/ECU_SpeedRef"/.test(document.getElementById('events').textContent));
    await op.waitForFunction(() => /fault 'drop frames ecu\/ECU_SpeedRef' off/.test(document.getElementById('events').textContent));

    await op.fill('#marker-text', 'gust test starts');
    await op.click('#marker-add');
    await op.waitForFunction(() => /tick \d+: operator: marker gust test starts/.test(document.getElementById('events').textContent));

    // a capture of the plotted channel triggered by the operator's gust (the wind's rising edge):
    // 0.05 s before it and 0.25 s from it, every tick, as CSV
    await op.fill('#filter', 'env.wind.speed');
    await op.click('#channels tr[data-name="env.wind.speed"]');
    await op.fill('#cap-when', 'env.wind.speed > 3');
    await op.selectOption('#cap-on', 'edge');
    await op.fill('#cap-pre', '0.05');
    await op.fill('#cap-len', '0.25');
    const download = op.waitForEvent('download');
    await op.click('#cap-arm');
    await op.waitForFunction(() => /armed at tick \d+/.test(document.getElementById('cap-status').textContent));
    await new Promise((r) => setTimeout(r, 200));  // the pre-trigger fills
    await op.fill('#op-value', '4');
    await op.click('#op-set');
    const file = await download;
    const csv = readFileSync(await file.path(), 'utf8').trim().split('\n');
    assert.equal(csv[0], 'time_s,tick,env.wind.speed');
    assert.equal(csv.length, 1 + 200 + 1000, 'pre-trigger 200 ticks + 1000 ticks');
    const ticks = csv.slice(1).map((l) => Number(l.split(',')[1]));
    assert.ok(ticks.every((t, i) => i === 0 || t === ticks[i - 1] + 1), 'every tick');
    const wind = csv.slice(1).map((l) => Number(l.split(',')[2]));
    assert.ok(wind[199] <= 3 && wind[200] === 4, `the edge at the trigger: ${wind[199]}, ${wind[200]}`);
    await op.waitForFunction(() => /shot 0: 1200 samples, 0 lost \(duration\)/.test(document.getElementById('cap-status').textContent));

    // a second operator waits for the lock; the first gives it back by leaving
    const op2 = await (await browser.newContext()).newPage();
    await op2.goto(`${url}?token=${token}&tab=op`);
    await op2.waitForFunction(() => document.querySelectorAll('#op-channel option').length > 10);
    await op2.selectOption('#op-channel', 'env.wind.speed');
    await op2.fill('#op-value', '2');
    await op2.click('#op-set');
    await op2.waitForFunction(() => /refused: the operator lock is held by 127\.0\.0\.1:\d+/.test(document.getElementById('events').textContent));
    await op.close();
    await op2.waitForFunction(() => /operator lock free/.test(document.getElementById('events').textContent));
    await op2.click('#op-set');
    await op2.waitForFunction(() => /operator: write env.wind.speed 2/.test(document.getElementById('events').textContent));

    // the run the page steered replays identically from its run directory
    run.child.kill('SIGINT');
    const end = await run.ended;
    assert.equal(end.code, 0, end.err);
    const log = readFileSync(join(dir, 'run', 'commands.log'), 'utf8');
    for (const line of [/ write env.wind.speed 11\n/, / release env.wind.speed\n/, / fault name: "drop frames ecu\/ECU_SpeedRef"/,
      / marker gust test starts\n/, / write env.wind.speed 4\n/, / write env.wind.speed 2\n/]) {
      assert.match(log, line);
    }
    const replay = execFileSync(HILSIM, ['replay', join(dir, 'run'), '--console', 'off', '-q']).toString();
    assert.match(replay, /^identical/m);
  } finally {
    await browser.close();
    run.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
