// Rendering in the browser tests: chromium's arguments for WebGL without a GPU, and comparing
// screenshots (tests/console/reference/*.png) with pngjs.
import { PNG } from 'pngjs';

/// WebGL without a GPU: ANGLE on SwiftShader, the same rasteriser on every machine (chromium
/// picks it by itself here; the flags keep it so where a GPU or a newer chromium would not).
export const GL_ARGS = ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];
/// Chromium without a GPU composites the page through SwiftShader too, which caps a page of
/// several live canvases at a few frames a second on 2 cores; in software it runs ~5× faster
/// (tests/bench/console_3d_cost.mjs measures both). The pictures are the same.
export const SOFTWARE_COMPOSITING = '--disable-gpu-compositing';

/// The share of the pixels of two PNGs (of one size; else 1) that differ by more than `delta`
/// (of 255) in a colour channel.
export function pixelDifference(a, b, delta) {
  const [pa, pb] = [PNG.sync.read(a), PNG.sync.read(b)];
  if (pa.width !== pb.width || pa.height !== pb.height) return 1;
  let different = 0;
  for (let i = 0; i < pa.data.length; i += 4) {
    const d = Math.max(Math.abs(pa.data[i] - pb.data[i]), Math.abs(pa.data[i + 1] - pb.data[i + 1]), Math.abs(pa.data[i + 2] - pb.data[i + 2]));
    if (d > delta) ++different;
  }
  return different / (pa.width * pa.height);
}
