// Draws one tick of a fixsteer world on a canvas: bounds, the navigation mesh's triangles, the navigation grid's blocked cells,
// the integration fields of navigate groups, paths, walls, obstacles, trails, each navigating agent's route, agents with their heading
// and target, and, when a second replay is compared, its agents
// and the agents whose state differs. Everything drawn comes from the library's answers
// (raw Q16.16 values); this file only maps them to pixels.
import { AGENT_STRIDE, FIELD_STEPS, ONE, meshEdges, unpackFieldCell } from './fxs.mjs';

const PAD = 16;

// A stable colour per behavior kind (the kind of an agent's first behavior).
export function kindColor(kind) {
  if (kind === 255) return '#9aa3b0';
  return `hsl(${(kind * 137.508) % 360}, 72%, 63%)`;
}

// A colour per field slot of the navigation's group fields (then again from the first).
const FIELD_RGB = [[95, 179, 255], [240, 179, 90], [111, 207, 127], [255, 107, 154], [179, 140, 255], [79, 214, 200],
  [255, 216, 77], [255, 138, 77]];
export const fieldRgb = (slot) => FIELD_RGB[slot % FIELD_RGB.length];

const PALETTE = ['#5fb3ff', '#f0b35a', '#6fcf7f', '#ff6b9a', '#b38cff', '#4fd6c8', '#ffd84d', '#ff8a4d', '#9ad0ff', '#c7e07a'];
const trim = (v) => (Math.abs(v) >= 100 ? v.toFixed(1) : v.toFixed(3)).replace(/\.?0+$/, '') || '0';

// How agents are coloured (the user's choice): by behavior set (every kind, in order), first
// behavior, team (agents with the same max speed, max force, mass and radius) or owner.
// Groups keep their colour for as long as the object lives (reset() on a new scene).
export const COLOUR_MODES = { set: 'behavior set', first: 'first behavior', team: 'team (same limits)', owner: 'owner' };

export class AgentColours {
  constructor() {
    this.keys = new Map();
  }

  reset() {
    this.keys = new Map();
  }

  // The group of agent row i of an agent table (AGENT_STRIDE values per agent).
  key(agents, i, mode) {
    switch (mode) {
      case 'first': return agents[i + 7];
      case 'team': return `${agents[i + 12]},${agents[i + 13]},${agents[i + 14]},${agents[i + 6]}`;
      case 'owner': return agents[i + 10];
      default: return agents[i + 11];
    }
  }

  colour(agents, i, mode) {
    const key = this.key(agents, i, mode);
    if (mode === 'first') return kindColor(key);
    if ((mode === 'owner' && key < 0) || (mode === 'set' && key === 0)) return '#9aa3b0';
    if (!this.keys.has(mode)) this.keys.set(mode, new Map());
    const keys = this.keys.get(mode);
    if (!keys.has(key)) keys.set(key, keys.size);
    const n = keys.get(key);
    return n < PALETTE.length ? PALETTE[n] : `hsl(${(n * 137.508) % 360}, 70%, 62%)`;
  }

  // names: { behavior(kind) -> name, set(agents, i) -> "separation + pursuit" or null }.
  label(agents, i, mode, names) {
    const kind = agents[i + 7];
    const first = kind === 255 ? 'no behavior' : names.behavior(kind);
    switch (mode) {
      case 'first': return first;
      case 'team': {
        let text = `max speed ${trim(agents[i + 12] / ONE)}, max force ${trim(agents[i + 13] / ONE)}`;
        if (agents[i + 14] !== ONE) text += `, mass ${trim(agents[i + 14] / ONE)}`;
        if (agents[i + 6] !== 8 * ONE) text += `, radius ${trim(agents[i + 6] / ONE)}`;
        return text;
      }
      case 'owner': return agents[i + 10] < 0 ? 'shared' : `owned by source ${agents[i + 10]}`;
      default:
        if (kind === 255) return first;
        return (names.set && names.set(agents, i)) || `${first} and ${agents[i + 8] - 1} more`;
    }
  }

  // Fills a <ul> with one line per group: its colour, label and agent count.
  legend(list, agents, mode, names) {
    const groups = new Map();
    for (let i = 0; i < agents.length; i += AGENT_STRIDE) {
      const key = this.key(agents, i, mode);
      const g = groups.get(key) || { count: 0, i, colour: this.colour(agents, i, mode) };
      g.count++;
      groups.set(key, g);
    }
    list.textContent = '';
    for (const g of groups.values()) {
      const li = document.createElement('li');
      const dot = document.createElement('i');
      dot.style.background = g.colour;
      li.append(dot, `${this.label(agents, g.i, mode, names)} × ${g.count}`);
      list.append(li);
    }
  }
}

export class WorldView {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.scale = 1;
    this.min = [0, 0];
  }

  // Fits the world's bounds (raw Q16.16: minx, miny, maxx, maxy) into the canvas.
  fit(bounds) {
    const [x0, y0, x1, y1] = bounds.map((v) => v / ONE);
    const w = Math.max(1, x1 - x0), h = Math.max(1, y1 - y0);
    this.scale = Math.min((this.canvas.width - 2 * PAD) / w, (this.canvas.height - 2 * PAD) / h);
    this.min = [x0, y0];
    this.offset = [(this.canvas.width - w * this.scale) / 2, (this.canvas.height - h * this.scale) / 2];
  }

  // World units (raw Q16.16) to canvas pixels; y grows downward.
  px(x) {
    return this.offset[0] + (x / ONE - this.min[0]) * this.scale;
  }

  py(y) {
    return this.offset[1] + (y / ONE - this.min[1]) * this.scale;
  }

  len(r) {
    return (r / ONE) * this.scale;
  }

  // Canvas pixels back to world units (a JS number, not raw).
  toWorld(px, py) {
    return [(px - this.offset[0]) / this.scale + this.min[0], (py - this.offset[1]) / this.scale + this.min[1]];
  }

  clear() {
    const { ctx, canvas } = this;
    ctx.fillStyle = '#0d0f13';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
  }

  // frame: fxs_web_frame's answer; agents: Int32Array (AGENT_STRIDE each); trails: Map
  // slot -> [[x, y], ...]; other: B's agents or null; differs: Set of slots that differ.
  // options: colour(agents, i) -> CSS colour (default: by first behavior), selected: Set of
  // slots ringed, overlay(ctx, view): drawn last (the playground's pending edits), blocked
  // and routes: false hides the navigation grid's blocked cells or the agents' routes,
  // fields: a Replay's navFields() answer to draw (or null), mesh: a mesh() answer to draw (or
  // null). Sets the canvas's data-nav-runs, data-route-count, data-field-count,
  // data-field-cells, data-mesh-triangles and data-mesh-edges to what it drew.
  draw(frame, agents, trails, other, differs, options = {}) {
    this.clear();
    this.fit(frame.bounds);
    const edges = options.mesh ? this.drawMesh(options.mesh) : 0;
    this.canvas.dataset.meshTriangles = String(options.mesh ? options.mesh.triangles.length / 4 : 0);
    this.canvas.dataset.meshEdges = String(edges);
    this.drawBounds(frame);
    const runs = frame.nav && options.blocked !== false ? this.drawBlocked(frame.nav) : 0;
    const fieldCells = options.fields ? this.drawFields(options.fields) : 0;
    this.canvas.dataset.fieldCount = String(options.fields ? options.fields.fields.length : 0);
    this.canvas.dataset.fieldCells = String(fieldCells);
    for (const path of frame.paths) this.drawPath(path);
    this.drawWalls(frame.walls);
    this.drawObstacles(frame.obstacles);
    this.drawTrails(trails);
    const routes = frame.routes && options.routes !== false ? this.drawRoutes(frame.routes, agents, options.colour) : 0;
    this.canvas.dataset.navRuns = String(runs);
    this.canvas.dataset.routeCount = String(routes);
    if (other) this.drawAgents(other, { dashed: true });
    this.drawAgents(agents, { colour: options.colour });
    if (differs && differs.size) this.drawDifferences(agents, other, differs);
    if (options.selected && options.selected.size) this.drawSelected(agents, options.selected);
    if (options.overlay) options.overlay(this.ctx, this);
  }

  // The navigation mesh's triangles, under everything else: every side once, thin; the
  // constrained ones (walls, the octagons round obstacles, the bounds) warmer. Returns the
  // sides drawn.
  drawMesh(mesh) {
    const { ctx } = this;
    const v = mesh.vertices;
    const edges = meshEdges(mesh);
    ctx.lineWidth = 1;
    for (const constrained of [0, 1]) {
      ctx.strokeStyle = constrained ? 'rgba(240, 179, 90, 0.55)' : 'rgba(110, 160, 230, 0.5)';
      ctx.beginPath();
      for (const [a, b, c] of edges) {
        if (c !== constrained) continue;
        ctx.moveTo(this.px(v[2 * a]), this.py(v[2 * a + 1]));
        ctx.lineTo(this.px(v[2 * b]), this.py(v[2 * b + 1]));
      }
      ctx.stroke();
    }
    return edges.length;
  }

  // The blocked cells of the navigation grid (walls and obstacles by the radius, cost 0),
  // faintly, one rectangle per run along a row. Returns the runs drawn.
  drawBlocked(nav) {
    const { ctx } = this;
    const cell = nav.cell, [ox, oy] = nav.origin, b = nav.blocked;
    ctx.fillStyle = 'rgba(214, 184, 140, 0.22)';
    for (let i = 0; i < b.length; i += 3) {
      const x = this.px(ox + b[i + 1] * cell), y = this.py(oy + b[i] * cell);
      ctx.fillRect(x, y, this.len(cell * b[i + 2]), this.len(cell));
    }
    return b.length / 3;
  }

  // The integration fields of navigate groups: each reached cell in the colour of its
  // cheapest field, brighter nearer its goal (ten bands of the largest value shown), an arrow
  // along the direction field every few cells (at most 48 along the longer side) and each
  // goal ringed. Returns the cells coloured.
  drawFields(nf) {
    if (!nf.fields.length) return 0;
    const { ctx } = this;
    const w = nf.columns, h = nf.rows, cells = nf.cells;
    let most = 0;
    for (let i = 0; i < cells.length; ++i) {
      const c = unpackFieldCell(cells[i]);
      if (c.slot >= 0 && c.value > most) most = c.value;
    }
    const image = new ImageData(w, h);
    let coloured = 0;
    for (let i = 0; i < cells.length; ++i) {
      const c = unpackFieldCell(cells[i]);
      if (c.slot < 0) continue;
      const band = Math.floor((c.value * 10) / (most + 1));
      const [r, g, b] = fieldRgb(c.slot);
      image.data.set([r, g, b, Math.round(255 * (0.42 - 0.035 * band))], 4 * i);
      ++coloured;
    }
    const layer = document.createElement('canvas');
    layer.width = w;
    layer.height = h;
    layer.getContext('2d').putImageData(image, 0, 0);
    const [ox, oy] = nf.origin;
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(layer, this.px(ox), this.py(oy), this.len(nf.cell * w), this.len(nf.cell * h));
    ctx.imageSmoothingEnabled = true;
    const step = Math.ceil(Math.max(w, h) / 48), half = 0.32 * this.len(nf.cell) * step;
    ctx.lineWidth = 1;
    for (let cy = step >> 1; cy < h; cy += step) {
      for (let cx = step >> 1; cx < w; cx += step) {
        const c = unpackFieldCell(cells[cy * w + cx]);
        if (c.slot < 0 || c.direction >= 8) continue;
        const [sx, sy] = FIELD_STEPS[c.direction], n = sx && sy ? Math.SQRT2 : 1;
        const dx = (sx * half) / n, dy = (sy * half) / n;
        const x = this.px(ox + (cx + 0.5) * nf.cell), y = this.py(oy + (cy + 0.5) * nf.cell);
        const [r, g, b] = fieldRgb(c.slot);
        ctx.strokeStyle = ctx.fillStyle = `rgba(${r}, ${g}, ${b}, 0.75)`;
        ctx.beginPath();
        ctx.moveTo(x - dx, y - dy);
        ctx.lineTo(x + dx, y + dy);
        ctx.stroke();
        const bx = x + 0.55 * dx, by = y + 0.55 * dy;
        ctx.beginPath();
        ctx.moveTo(x + dx, y + dy);
        ctx.lineTo(bx - 0.35 * dy, by + 0.35 * dx);
        ctx.lineTo(bx + 0.35 * dy, by - 0.35 * dx);
        ctx.fill();
      }
    }
    for (const f of nf.fields) {
      const [r, g, b] = fieldRgb(f.slot);
      ctx.strokeStyle = `rgb(${r}, ${g}, ${b})`;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(this.px(ox + (f.goal[0] + 0.5) * nf.cell), this.py(oy + (f.goal[1] + 0.5) * nf.cell), 6, 0, 2 * Math.PI);
      ctx.stroke();
    }
    return coloured;
  }

  // Each route: the part still ahead (from the agent to the waypoint it seeks, then on) as a
  // dashed line in the agent's colour with a dot on every waypoint, the part behind it
  // fainter. Returns the routes drawn.
  drawRoutes(routes, agents, colourOf) {
    const { ctx } = this;
    const at = new Map();
    for (let i = 0; i < agents.length; i += AGENT_STRIDE) at.set(agents[i], i);
    let drawn = 0;
    for (const route of routes) {
      const i = at.get(route.slot);
      if (i === undefined || route.points.length < 2) continue;
      const p = route.points, n = p.length / 2, next = Math.min(route.next, n - 1);
      const colour = colourOf ? colourOf(agents, i) : kindColor(agents[i + 7]);
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = colour;
      ctx.globalAlpha = 0.3;
      ctx.beginPath();
      ctx.moveTo(this.px(p[0]), this.py(p[1]));
      for (let k = 1; k <= next; ++k) ctx.lineTo(this.px(p[2 * k]), this.py(p[2 * k + 1]));
      ctx.stroke();
      ctx.globalAlpha = 0.9;
      ctx.setLineDash([6, 4]);
      ctx.beginPath();
      ctx.moveTo(this.px(agents[i + 1]), this.py(agents[i + 2]));
      for (let k = next; k < n; ++k) ctx.lineTo(this.px(p[2 * k]), this.py(p[2 * k + 1]));
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = colour;
      for (let k = next; k < n; ++k) {
        ctx.beginPath();
        ctx.arc(this.px(p[2 * k]), this.py(p[2 * k + 1]), 2.5, 0, 2 * Math.PI);
        ctx.fill();
      }
      ctx.globalAlpha = 1;
      ++drawn;
    }
    return drawn;
  }

  drawSelected(agents, selected) {
    const { ctx } = this;
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = 2;
    ctx.setLineDash([4, 3]);
    for (let i = 0; i < agents.length; i += AGENT_STRIDE) {
      if (!selected.has(agents[i])) continue;
      ctx.beginPath();
      ctx.arc(this.px(agents[i + 1]), this.py(agents[i + 2]), Math.max(4.5, this.len(agents[i + 6])) + 5, 0, 2 * Math.PI);
      ctx.stroke();
    }
    ctx.setLineDash([]);
  }

  drawBounds(frame) {
    const { ctx } = this;
    const [x0, y0, x1, y1] = frame.bounds;
    ctx.strokeStyle = frame.clamp ? '#4a5260' : '#313742';
    ctx.lineWidth = 1;
    ctx.setLineDash(frame.clamp ? [] : [6, 4]);
    ctx.strokeRect(this.px(x0), this.py(y0), this.px(x1) - this.px(x0), this.py(y1) - this.py(y0));
    ctx.setLineDash([]);
  }

  drawPath(path) {
    const { ctx } = this;
    const n = path.nodes;
    if (n.length < 2) return;
    const trace = () => {
      ctx.beginPath();
      ctx.moveTo(this.px(n[0]), this.py(n[1]));
      for (let i = 2; i < n.length; i += 2) ctx.lineTo(this.px(n[i]), this.py(n[i + 1]));
      if (path.mode === 1) ctx.closePath(); // loop
    };
    ctx.lineJoin = ctx.lineCap = 'round';
    ctx.strokeStyle = 'rgba(120, 170, 255, 0.10)';
    ctx.lineWidth = Math.max(2, 2 * this.len(path.radius));
    trace();
    ctx.stroke();
    ctx.strokeStyle = 'rgba(120, 170, 255, 0.55)';
    ctx.lineWidth = 1;
    ctx.setLineDash([4, 4]);
    trace();
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = 'rgba(120, 170, 255, 0.8)';
    for (let i = 0; i < n.length; i += 2) {
      ctx.beginPath();
      ctx.arc(this.px(n[i]), this.py(n[i + 1]), 2.5, 0, 2 * Math.PI);
      ctx.fill();
    }
  }

  drawWalls(walls) {
    const { ctx } = this;
    ctx.strokeStyle = '#c9ced6';
    ctx.lineWidth = 3;
    ctx.lineCap = 'round';
    for (const [ax, ay, bx, by] of walls) {
      ctx.beginPath();
      ctx.moveTo(this.px(ax), this.py(ay));
      ctx.lineTo(this.px(bx), this.py(by));
      ctx.stroke();
    }
  }

  drawObstacles(obstacles) {
    const { ctx } = this;
    for (const [x, y, r] of obstacles) {
      ctx.beginPath();
      ctx.arc(this.px(x), this.py(y), Math.max(1, this.len(r)), 0, 2 * Math.PI);
      ctx.fillStyle = '#3a3f49';
      ctx.fill();
      ctx.strokeStyle = '#5d6471';
      ctx.lineWidth = 1;
      ctx.stroke();
    }
  }

  drawTrails(trails) {
    const { ctx } = this;
    ctx.lineWidth = 1.5;
    for (const points of trails.values()) {
      for (let i = 1; i < points.length; ++i) {
        ctx.strokeStyle = `rgba(160, 190, 230, ${(0.45 * i) / points.length})`;
        ctx.beginPath();
        ctx.moveTo(this.px(points[i - 1][0]), this.py(points[i - 1][1]));
        ctx.lineTo(this.px(points[i][0]), this.py(points[i][1]));
        ctx.stroke();
      }
    }
  }

  drawAgents(agents, { dashed, colour: colourOf }) {
    const { ctx } = this;
    const at = new Map();
    for (let i = 0; i < agents.length; i += AGENT_STRIDE) at.set(agents[i], i);
    for (let i = 0; i < agents.length; i += AGENT_STRIDE) {
      const x = this.px(agents[i + 1]), y = this.py(agents[i + 2]);
      const r = Math.max(4.5, this.len(agents[i + 6]));
      const a = agents[i + 5] / ONE;
      const colour = colourOf ? colourOf(agents, i) : kindColor(agents[i + 7]);
      const target = agents[i + 9];
      if (!dashed && target >= 0 && at.has(target)) {
        const j = at.get(target);
        ctx.strokeStyle = 'rgba(255, 120, 120, 0.35)';
        ctx.lineWidth = 1;
        ctx.setLineDash([3, 5]);
        ctx.beginPath();
        ctx.moveTo(x, y);
        ctx.lineTo(this.px(agents[j + 1]), this.py(agents[j + 2]));
        ctx.stroke();
        ctx.setLineDash([]);
      }
      ctx.beginPath();
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      if (dashed) {
        ctx.setLineDash([3, 3]);
        ctx.strokeStyle = '#f0b35a';
        ctx.lineWidth = 1.5;
        ctx.stroke();
        ctx.setLineDash([]);
      } else {
        ctx.fillStyle = colour;
        ctx.fill();
      }
      // Heading: orientation 0 faces +x, positive angles turn toward +y.
      ctx.strokeStyle = dashed ? '#f0b35a' : '#eef2f7';
      ctx.lineWidth = dashed ? 1.5 : 2;
      ctx.beginPath();
      ctx.moveTo(x + Math.cos(a) * r * 0.3, y + Math.sin(a) * r * 0.3);
      ctx.lineTo(x + Math.cos(a) * (r + 6), y + Math.sin(a) * (r + 6));
      ctx.stroke();
    }
  }

  drawDifferences(agents, other, differs) {
    const { ctx } = this;
    ctx.strokeStyle = '#ff4d4d';
    ctx.lineWidth = 2.5;
    const ring = (list) => {
      for (let i = 0; list && i < list.length; i += AGENT_STRIDE) {
        if (!differs.has(list[i])) continue;
        ctx.beginPath();
        ctx.arc(this.px(list[i + 1]), this.py(list[i + 2]), Math.max(4.5, this.len(list[i + 6])) + 6, 0, 2 * Math.PI);
        ctx.stroke();
      }
    };
    ring(agents);
    ring(other);
  }
}
