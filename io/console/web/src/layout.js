// Layouts: the panels (a title and channels each), the window and the views beside the plots
// (3D, XY), saved per rig in the browser and exported/imported as JSON files (docs/console.md,
// "Layouts"). A rig without a saved layout opens with default_layout.js's.

export const FORMAT = 'hilsim.console.layout.v1';
/// The views a layout may show beside the plots, in the order they stack.
export const VIEWS = ['3d', 'xy'];

export function emptyLayout() {
  return { format: FORMAT, rig: null, window_s: 60, panels: [{ channels: [] }], views: [] };
}

/// Checks a layout read from a file or the browser; returns {layout, problems}. Channels the
/// run does not have are dropped and named in `problems`.
export function parseLayout(text, known) {
  let raw;
  try { raw = JSON.parse(text); } catch (e) { return { layout: null, problems: [`not JSON: ${e.message}`] }; }
  if (!raw || raw.format !== FORMAT) return { layout: null, problems: [`"format" must be "${FORMAT}"`] };
  if (!Array.isArray(raw.panels)) return { layout: null, problems: ['"panels" must be a list'] };
  const problems = [];
  const panels = raw.panels.map((p, i) => {
    const names = Array.isArray(p?.channels) ? p.channels.filter((n) => typeof n === 'string') : [];
    const missing = names.filter((n) => !known.has(n));
    if (missing.length) problems.push(`panel ${i + 1}: no channel ${missing.join(', ')} in this run`);
    const panel = { channels: names.filter((n) => known.has(n)) };
    return typeof p?.title === 'string' && p.title ? { title: p.title, ...panel } : panel;
  });
  const w = Number(raw.window_s);
  const window_s = Number.isFinite(w) && w >= 10 && w <= 600 ? w : 60;
  const asked = Array.isArray(raw.views) ? raw.views : [];  // a layout from before views: none
  const unknown = asked.filter((v) => !VIEWS.includes(v));
  if (unknown.length) problems.push(`no view ${unknown.join(', ')} (views: ${VIEWS.join(', ')})`);
  const views = VIEWS.filter((v) => asked.includes(v));
  return { layout: { format: FORMAT, rig: raw.rig ?? null, window_s, panels: panels.length ? panels : [{ channels: [] }], views }, problems };
}

export function storageKey(rig) { return `hilsim.layout.${rig}`; }

export function download(name, text, type) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
