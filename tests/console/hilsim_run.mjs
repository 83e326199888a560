// Starts `hilsim` with a console on a free loopback port and resolves with its URL and the
// operator token once the first stderr lines name them; `ended` resolves with the exit.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const HILSIM = process.env.HILSIM;

export function startHilsim(args) {
  const child = spawn(HILSIM, [...args, '--console', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stdout.on('data', (d) => (out += d));
  const ready = new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      const url = err.match(/^console: (http:\/\/\S+\/)\n/);
      const token = err.match(/operator token in (\S+) /);
      if (url && token) resolve({ url: url[1], token: readFileSync(token[1], 'utf8').trim() });
    });
    child.on('exit', (code) => reject(new Error(`hilsim exited ${code}: ${err}`)));
  });
  const ended = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out, err })));
  return { child, ready, ended, stderr: () => err };
}

export function percentile(values, q) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/// Resolves once `what()` is true; rejects after `ms`.
export async function until(what, ms = 10000) {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
