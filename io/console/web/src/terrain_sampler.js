// The ground height under a point, from the scene's terrain mesh (docs/console.md "3D"): the
// cones, the planned path and the driven trail sit on it. Triangles are bucketed in a grid
// over their bounding boxes, so a query looks at a few of them.

export class TerrainSampler {
  /// `terrain`: the scene's {vertices: [x, y, z, …], indices: [i0, i1, i2, …]}.
  constructor(terrain, cellsPerSide = 64) {
    this.v = terrain.vertices;
    this.idx = terrain.indices;
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (let i = 0; i < this.v.length; i += 3) {
      x0 = Math.min(x0, this.v[i]); x1 = Math.max(x1, this.v[i]);
      y0 = Math.min(y0, this.v[i + 1]); y1 = Math.max(y1, this.v[i + 1]);
    }
    this.x0 = x0; this.y0 = y0;
    this.n = cellsPerSide;
    this.cw = Math.max((x1 - x0) / cellsPerSide, 1e-9);
    this.ch = Math.max((y1 - y0) / cellsPerSide, 1e-9);
    this.cells = Array.from({ length: cellsPerSide * cellsPerSide }, () => []);
    for (let t = 0; t + 2 < this.idx.length; t += 3) {
      const xs = [0, 1, 2].map((k) => this.v[3 * this.idx[t + k]]), ys = [0, 1, 2].map((k) => this.v[3 * this.idx[t + k] + 1]);
      const [c0, c1] = [this.col(Math.min(...xs)), this.col(Math.max(...xs))];
      const [r0, r1] = [this.row(Math.min(...ys)), this.row(Math.max(...ys))];
      for (let r = r0; r <= r1; ++r) for (let c = c0; c <= c1; ++c) this.cells[r * this.n + c].push(t);
    }
  }
  col(x) { return Math.min(this.n - 1, Math.max(0, Math.floor((x - this.x0) / this.cw))); }
  row(y) { return Math.min(this.n - 1, Math.max(0, Math.floor((y - this.y0) / this.ch))); }

  /// The mesh's height at (x, y), linear within its triangle; `fallback` off the mesh.
  heightAt(x, y, fallback = 0) {
    const v = this.v;
    for (const t of this.cells[this.row(y) * this.n + this.col(x)] ?? []) {
      const [a, b, c] = [3 * this.idx[t], 3 * this.idx[t + 1], 3 * this.idx[t + 2]];
      const det = (v[b + 1] - v[c + 1]) * (v[a] - v[c]) + (v[c] - v[b]) * (v[a + 1] - v[c + 1]);
      if (det === 0) continue;
      const l1 = ((v[b + 1] - v[c + 1]) * (x - v[c]) + (v[c] - v[b]) * (y - v[c + 1])) / det;
      const l2 = ((v[c + 1] - v[a + 1]) * (x - v[c]) + (v[a] - v[c]) * (y - v[c + 1])) / det;
      const l3 = 1 - l1 - l2, eps = -1e-9;
      if (l1 >= eps && l2 >= eps && l3 >= eps) return l1 * v[a + 2] + l2 * v[b + 2] + l3 * v[c + 2];
    }
    return fallback;
  }
}
