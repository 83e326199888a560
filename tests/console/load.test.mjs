// Load on loopback (issue 13): 32 clients × 32 channels at the console's 1 kHz for 20 s plus
// one client that stops reading. The console thread stays under half a core, the process's
// memory stays bounded, the stalled client is closed while every other client keeps its full
// sample rate with no sequence gaps; a console page open meanwhile measures tick to pixel.
//   HILSIM=build/release/tools/hilsim node --test tests/console/load.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import { percentile, startHilsim, until } from './hilsim_run.mjs';

const CLIENTS = 32, CHANNELS = 32, SECONDS = Number(process.env.LOAD_SECONDS ?? 20);
const TICKS_PER_S = 100; // /proc clock ticks (USER_HZ)

function threadCpu(pid, name) {  // utime + stime of the thread called `name`, in seconds
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    if (comm !== name) continue;
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS_PER_S;
  }
  throw new Error(`no thread ${name}`);
}
const rssMb = (pid) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;

function client(url, pick) {
  const ws = new WebSocket(url.replace('http:', 'ws:') + 'ws', ['hilsim.console.v1']);
  const c = { ws, samples: 0, gaps: 0, frames: 0, seq: null, close: null, ready: false };
  ws.on('message', (d, binary) => {
    if (!binary) {
      const m = JSON.parse(d.toString());
      if (m.type === 'channels') {
        ws.send(JSON.stringify({ type: 'subscribe', id: 1, channels: pick(m.channels.map((x) => x.name)) }));
      }
      if (m.type === 'subscribed') c.ready = true;
      if (m.type === 'status') c.status = m;
      return;
    }
    const dv = new DataView(d.buffer, d.byteOffset, d.byteLength);
    const seq = dv.getUint32(4, true);
    if (c.seq !== null && seq !== ((c.seq + 1) >>> 0)) c.gaps += 1;
    c.seq = seq;
    c.frames += 1;
    if (c.counting) c.samples += dv.getUint16(20, true);
  });
  ws.on('close', (code) => (c.close = code));
  ws.on('error', () => {});
  return c;
}

test(`${CLIENTS} clients × ${CHANNELS} channels and a stalled one`, { timeout: 180000 }, async () => {
  const run = startHilsim(['run', '--duration', `${SECONDS + 40}s`, '--no-record', '-q']);
  try {
    const { url } = await run.ready;
    const pid = run.child.pid;
    const clients = Array.from({ length: CLIENTS }, (_, k) =>
      client(url, (names) => Array.from({ length: CHANNELS }, (_, j) => names[(k * 7 + j) % names.length])));
    const stalled = client(url, (names) => names);
    await until(() => clients.every((c) => c.ready) && stalled.ready, 15000);
    stalled.ws._socket.pause();  // stops reading: the kernel buffers fill, then the server's queue
    const browser = existsSync('/usr/bin/chromium')
      ? await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] }) : null;
    const page = browser && await browser.newPage({ viewport: { width: 1280, height: 800 } });
    if (page) {
      await page.goto(`${url}?layout=blank`);  // a page with the one plot below, not the rig's default
      await page.waitForFunction(() => document.getElementById('run').textContent.includes('ravon'));
      await page.fill('#filter', 'vehicle.body.speed');
      await page.click('#channels tr[data-name="vehicle.body.speed"]');
    }
    await new Promise((r) => setTimeout(r, 1000));
    if (page) await page.evaluate(() => (window.__hilsimMetrics.latency_ms.length = 0));

    const cpu0 = threadCpu(pid, 'hilsim-console'), rss0 = rssMb(pid), t0 = Date.now();
    for (const c of clients) { c.counting = true; c.gaps = 0; }
    let rssMax = rss0;
    const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssMb(pid))), 500);
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    clearInterval(sampler);
    for (const c of clients) c.counting = false;
    const elapsed = (Date.now() - t0) / 1000, cpu = (threadCpu(pid, 'hilsim-console') - cpu0) / elapsed;

    const latency = page ? await page.evaluate(() => window.__hilsimMetrics.latency_ms) : [];
    await browser?.close();
    stalled.ws._socket.resume();
    await until(() => stalled.close !== null, 5000);
    const rates = clients.map((c) => c.samples / elapsed).sort((a, b) => a - b);
    const gaps = clients.reduce((n, c) => n + c.gaps, 0);
    console.log(`console thread ${(cpu * 100).toFixed(1)} % of a core; RSS ${rss0.toFixed(1)} → max ${rssMax.toFixed(1)} MB; ` +
      `per-client rate min ${rates[0].toFixed(0)}, median ${rates[CLIENTS >> 1].toFixed(0)} samples/s; seq gaps ${gaps}; ` +
      `stalled client closed with ${stalled.close}; tick to pixel in the page p50 ${percentile(latency, 0.5)?.toFixed(1)} ms, ` +
      `p99 ${percentile(latency, 0.99)?.toFixed(1)} ms over ${latency.length} frames`);
    assert.ok(cpu <= 0.5, `the console thread used ${(cpu * 100).toFixed(1)} % of a core`);
    assert.ok(rssMax - rss0 < 64, `RSS grew ${(rssMax - rss0).toFixed(1)} MB`);
    assert.ok(rates[0] > 900, `the slowest client got ${rates[0].toFixed(0)} samples/s`);
    assert.equal(gaps, 0, 'no frames dropped for clients that read');
    assert.ok(clients.every((c) => c.close === null), 'the reading clients stay connected');
    assert.notEqual(stalled.close, null);
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(clients[0].status.console.closed_stalled, 1, 'counted as stalled');
    for (const c of clients) c.ws.close();
  } finally {
    run.child.kill('SIGINT');
    await run.ended;
  }
});
