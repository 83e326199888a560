// The console page in Debian's chromium (playwright-core), against a real `hilsim run`:
// nothing is fetched from outside the console, the header names the run, the channel filter
// works, a plot of vehicle.body.speed draws and advances, a viewer cannot stop the run, an
// operator (token) can, and the run then says "stopped by the operator (console)".
//   HILSIM=build/release/tools/hilsim node --test tests/console/page.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { percentile, startHilsim } from './hilsim_run.mjs';

const CHROMIUM = '/usr/bin/chromium';

test('the console page watches and stops a run', { skip: !existsSync(CHROMIUM) && 'no chromium' },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hilsim-console-'));
    const run = startHilsim(['run', '--duration', '60s', '--record', join(dir, 'run'), '-q']);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const { url, token } = await run.ready;
      assert.match(run.child.spawnargs.join(' '), /--console/);
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const foreign = [];
      await page.route('**/*', (route) => {
        if (!route.request().url().startsWith(url.replace(/\/$/, ''))) {
          foreign.push(route.request().url());
          return route.abort();
        }
        return route.continue();
      });
      await page.goto(`${url}?layout=blank`);  // the one plot below (tick to pixel of a page alone), not the rig's default
      await page.waitForFunction(() => document.getElementById('run').textContent.includes('ravon'));
      assert.equal(await page.isDisabled('#stop'), true, 'a viewer cannot stop the run');

      await page.fill('#filter', 'vehicle.wheel.*.speed');
      const shown = await page.$$eval('#channels tr', (rows) => rows.filter((r) => !r.hidden).length);
      assert.equal(shown, 4);

      await page.fill('#filter', 'vehicle.body.speed');
      await page.click('#channels tr:not([hidden])');
      await page.waitForFunction(() => document.querySelector('#panels canvas') !== null);
      const points = () => page.evaluate(() => window.__hilsimMetrics.latency_ms.length);
      await page.waitForFunction(() => window.__hilsimMetrics.latency_ms.length > 20);
      const before = await points();
      await page.waitForTimeout(500);
      assert.ok((await points()) > before, 'the plot keeps drawing');
      await page.waitForTimeout(5000);
      const lat = await page.evaluate(() => window.__hilsimMetrics.latency_ms);
      console.log(`tick to pixel: p50 ${percentile(lat, 0.5).toFixed(1)} ms, p99 ${percentile(lat, 0.99).toFixed(1)} ms over ${lat.length} frames`);

      // the operator: the token becomes a cookie, Stop ends the run
      await page.goto(`${url}?token=${token}`);
      await page.waitForFunction(() => !document.getElementById('stop').disabled);
      page.on('dialog', (d) => d.accept());
      await page.click('#stop');
      const end = await run.ended;
      assert.equal(end.code, 0);
      assert.match(end.out, /stopped by the operator \(console\)/);
      const manifest = JSON.parse(readFileSync(join(dir, 'run', 'manifest.json'), 'utf8'));
      assert.equal(manifest.ended, 'stopped by the operator (console)');
      assert.deepEqual(foreign, [], 'requests left the console');
    } finally {
      await browser.close();
      run.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
