// The console page in operator mode (Debian's chromium): an input forced from the channel
// browser shows in every event log with the tick it was applied at and in the channel's live
// value; released, it goes back; a viewer's page has no such controls.
//   HILSIM=build/release/tools/hilsim node --test tests/console/operator.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startHilsim } from './hilsim_run.mjs';

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
