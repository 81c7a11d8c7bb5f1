'use strict';
// The flamegraph page: draws the embedded call tree as absolutely placed boxes (one per frame),
// and redraws on zoom, search, thread filter and inversion. The data layout is documented in
// FlamegraphData.java: nodes are [parent, function, file, line, total, self, [thread, total, self, ...]].
// A differential page also holds the baseline's nodes; each frame is then coloured by how its share
// of the samples changed: red grew, blue shrank, purple is not in the baseline.
(function () {
  const data = JSON.parse(document.getElementById('profile-data').textContent);
  const strings = data.strings;
  const ROW_HEIGHT = 18;
  const MIN_WIDTH = 0.5; // px: narrower frames (and so their children) are not drawn
  const LABEL_MIN_WIDTH = 36; // px: narrower frames show no text

  const chart = document.getElementById('chart');
  const tooltip = document.getElementById('tooltip');
  const threadSelect = document.getElementById('thread');
  const invertBox = document.getElementById('invert');
  const searchBox = document.getElementById('search');

  const state = { thread: -1, inverted: false, query: '' };
  let root = null;       // the view tree for the current thread and orientation
  let zoomed = null;     // the node drawn full width
  let drawn = [];        // drawn nodes, by the data-node index of their boxes
  const baseline = data.baseline || null;
  let baseRoot = null;   // the baseline's view tree, in the same orientation

  // ---- view trees ---------------------------------------------------------------------------

  function newNode(func, file, line, parent) {
    return { func, file, line, value: 0, self: 0, children: [], parent, depth: parent ? parent.depth + 1 : 0 };
  }

  function key(func, file, line) {
    return func + '\u0000' + file + '\u0000' + line;
  }

  // [total, self] of a row under the thread filter.
  function currentValues(row) {
    if (state.thread < 0) return [row[4], row[5]];
    const perThread = row[6];
    for (let i = 0; i < perThread.length; i += 3) {
      if (perThread[i] === state.thread) return [perThread[i + 1], perThread[i + 2]];
    }
    return [0, 0];
  }

  // Callees under callers, as written: rows come parent first and siblings in drawing order.
  function buildCallTree(rows = data.nodes, rowValues = currentValues) {
    const nodes = new Array(rows.length);
    const top = newNode('', '', -1, null);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const [total, self] = rowValues(r);
      if (total === 0) continue; // then its whole subtree is empty too
      const parent = i === 0 ? null : nodes[r[0]];
      const n = i === 0 ? top : newNode(strings[r[1]], strings[r[2]], r[3], parent);
      n.value = total;
      n.self = self;
      n.opcodes = [];
      const ops = r[7] || [];
      for (let k = 0; k + 1 < ops.length; k += 2) n.opcodes.push([strings[ops[k]], ops[k + 1]]);
      if (parent) parent.children.push(n);
      nodes[i] = n;
    }
    return top;
  }

  // Leaf-first stacks: each node's own samples are added along the path from it up to the root,
  // so the top level holds the functions samples ended in and below them who called them.
  function buildInvertedTree(rows = data.nodes, rowValues = currentValues) {
    const top = newNode('', '', -1, null);
    for (let i = 1; i < rows.length; i++) {
      const self = rowValues(rows[i])[1];
      if (self === 0) continue;
      top.value += self;
      let at = top;
      for (let j = i; j > 0; j = rows[j][0]) {
        const r = rows[j];
        const k = key(r[1], r[2], r[3]);
        if (!at.byKey) at.byKey = new Map();
        let child = at.byKey.get(k);
        if (!child) {
          child = newNode(strings[r[1]], strings[r[2]], r[3], at);
          at.byKey.set(k, child);
          at.children.push(child);
        }
        child.value += self;
        at = child;
      }
      at.self += self;
    }
    sortTree(top);
    return top;
  }

  function sortTree(top) {
    const byName = (a, b) => a.func < b.func ? -1 : a.func > b.func ? 1
      : a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line;
    const pending = [top];
    while (pending.length) {
      const n = pending.pop();
      n.children.sort(byName);
      for (const c of n.children) pending.push(c);
    }
  }

  function path(n) {
    const chain = [];
    for (; n; n = n.parent) chain.unshift(n);
    return chain;
  }

  // Rebuilds the tree and zooms back to the same frames, as far as they still exist.
  function rebuild(keepZoom) {
    const keys = keepZoom && zoomed ? path(zoomed).slice(1).map(n => key(n.func, n.file, n.line)) : [];
    root = state.inverted ? buildInvertedTree() : buildCallTree();
    if (baseline) {
      const all = r => [r[4], r[5]]; // the baseline's other threads: no filter applies
      baseRoot = state.inverted ? buildInvertedTree(baseline.nodes, all) : buildCallTree(baseline.nodes, all);
      compare(root, baseRoot);
    }
    zoomed = root;
    for (const k of keys) {
      const next = zoomed.children.find(c => key(c.func, c.file, c.line) === k);
      if (!next) break;
      zoomed = next;
    }
  }

  // Another run's paths may differ in directory (a collapsed baseline names files by basename).
  function diffKey(n) {
    return n.func + '\u0000' + n.file.slice(n.file.lastIndexOf('/') + 1) + '\u0000' + n.line;
  }

  // Pairs each frame with the baseline's frame at the same path, and notes the baseline's frames
  // under it that are gone.
  function compare(n, b) {
    n.base = b;
    const byKey = new Map();
    if (b) for (const c of b.children) byKey.set(diffKey(c), c);
    for (const c of n.children) {
      const k = diffKey(c);
      compare(c, byKey.get(k) || null);
      byKey.delete(k);
    }
    n.gone = [...byKey.values()].sort((x, y) => y.value - x.value);
  }

  // Percentage points the frame's share of all samples changed since the baseline.
  function change(n) {
    const now = root.value > 0 ? 100 * n.value / root.value : 0;
    const then = n.base && baseRoot.value > 0 ? 100 * n.base.value / baseRoot.value : 0;
    return now - then;
  }

  // ---- text ---------------------------------------------------------------------------------

  const number = new Intl.NumberFormat('en-US');

  function percent(part, whole) {
    return whole > 0 ? (100 * part / whole).toFixed(part === whole ? 0 : 2) + '%' : '0%';
  }

  function isPseudo(n) {
    return n.file === '~';
  }

  // C frames (with --native-frames) have no line: the file is their library.
  function isNative(n) {
    return n.line === -2;
  }

  function where(n) {
    if (isPseudo(n)) return '';
    if (isNative(n)) return 'C, in ' + n.file;
    return n.line >= 0 ? n.file + ':' + n.line : n.file;
  }

  function label(n) {
    if (n === root) return 'all (' + number.format(n.value) + ' samples)';
    if (isPseudo(n)) return n.func;
    const base = n.file.slice(n.file.lastIndexOf('/') + 1);
    return n.func + ' (' + (n.line >= 0 ? base + ':' + n.line : base) + ')';
  }

  function matches(n) {
    if (!state.query || n === root) return false;
    return n.func.toLowerCase().includes(state.query) || n.file.toLowerCase().includes(state.query);
  }

  // Warm colours, stable per function and file; pseudo-frames grey; C frames blue-green.
  function colour(n) {
    if (n === root) return 'hsl(0, 0%, 80%)';
    if (baseline) return diffColour(n);
    if (isPseudo(n)) return 'hsl(220, 8%, 72%)';
    if (isNative(n)) return 'hsl(190, 45%, ' + (62 + (n.func.length * 7) % 14) + '%)';
    let h = 0;
    const s = n.func + n.file;
    for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
    h = Math.abs(h);
    return 'hsl(' + (h % 50) + ', ' + (65 + (h >> 6) % 25) + '%, ' + (58 + (h >> 11) % 12) + '%)';
  }

  // Red for a share that grew, blue for one that shrank, the deeper the more points; purple: new.
  function diffColour(n) {
    if (!n.base) return 'hsl(280, 55%, 72%)';
    const d = change(n);
    const depth = Math.min(40, Math.abs(d) * 4);
    if (Math.abs(d) < 0.05) return 'hsl(0, 0%, 92%)';
    return d > 0 ? 'hsl(0, 85%, ' + (92 - depth) + '%)' : 'hsl(220, 85%, ' + (92 - depth) + '%)';
  }

  // ---- drawing ------------------------------------------------------------------------------

  function box(n, x, width, extraClass) {
    const el = document.createElement('div');
    el.className = 'frame' + extraClass + (isPseudo(n) ? ' pseudo' : '') + (matches(n) ? ' match' : '');
    el.style.left = x + 'px';
    el.style.width = width + 'px';
    el.style.top = n.depth * ROW_HEIGHT + 'px';
    el.style.background = colour(n);
    el.dataset.node = drawn.length;
    el.dataset.value = n.value;
    if (width >= LABEL_MIN_WIDTH) el.textContent = label(n);
    drawn.push(n);
    return el;
  }

  function render() {
    chart.textContent = '';
    drawn = [];
    if (root.value === 0) {
      const empty = document.createElement('div');
      empty.className = 'empty';
      empty.textContent = 'No samples' + (state.thread >= 0 ? ' in this thread.' : '.');
      chart.appendChild(empty);
      chart.style.height = '';
      renderStatus();
      return;
    }
    const width = chart.clientWidth;
    const boxes = document.createDocumentFragment();
    const chain = path(zoomed);
    for (const n of chain) {
      if (n !== zoomed) boxes.appendChild(box(n, 0, width, ' ancestor'));
    }
    let maxDepth = zoomed.depth;
    const scale = width / zoomed.value;
    const pending = [[zoomed, 0]];
    while (pending.length) {
      const [n, x] = pending.pop();
      const w = n.value * scale;
      if (w < MIN_WIDTH) continue;
      boxes.appendChild(box(n, x, w, n === zoomed ? ' zoomed' : ''));
      if (n.depth > maxDepth) maxDepth = n.depth;
      let cx = x;
      for (const c of n.children) {
        pending.push([c, cx]);
        cx += c.value * scale;
      }
    }
    chart.style.height = (maxDepth + 1) * ROW_HEIGHT + 'px';
    chart.appendChild(boxes);
    renderStatus();
  }

  function renderStatus() {
    const crumbs = document.getElementById('breadcrumb');
    crumbs.textContent = '';
    path(zoomed).forEach((n, i) => {
      if (i > 0) {
        const sep = document.createElement('span');
        sep.className = 'sep';
        sep.textContent = '›';
        crumbs.appendChild(sep);
      }
      const crumb = document.createElement('span');
      crumb.className = 'crumb';
      crumb.textContent = n === root ? 'all' : label(n);
      crumb.addEventListener('click', () => zoomTo(n));
      crumbs.appendChild(crumb);
    });
    document.getElementById('shown').textContent =
      number.format(root.value) + ' samples shown' + (zoomed !== root ? ', ' + number.format(zoomed.value) + ' in zoom' : '');
    renderMatched();
  }

  // Samples in matching frames, each sample counted once even when matches nest.
  function renderMatched() {
    const out = document.getElementById('matched');
    if (!state.query) {
      out.textContent = '';
      return;
    }
    let matched = 0;
    const pending = [root];
    while (pending.length) {
      const n = pending.pop();
      if (matches(n)) matched += n.value;
      else for (const c of n.children) pending.push(c);
    }
    out.textContent = 'Matched: ' + percent(matched, root.value) + ' (' + number.format(matched) + ' samples)';
  }

  function zoomTo(n) {
    zoomed = n;
    hideTooltip();
    render();
  }

  // ---- tooltip ------------------------------------------------------------------------------

  function showTooltip(n, event) {
    tooltip.textContent = '';
    const line = (cls, text) => {
      const div = document.createElement('div');
      if (cls) div.className = cls;
      div.textContent = text;
      tooltip.appendChild(div);
    };
    line('fn', n === root ? 'all samples' : n.func);
    if (n !== root && where(n)) line('where', where(n));
    line('', 'Samples: ' + number.format(n.value) + ' (' + percent(n.value, root.value) + ')');
    line('', 'Self: ' + number.format(n.self) + ' (' + percent(n.self, root.value) + ')');
    if (baseline) {
      const then = n.base ? percent(n.base.value, baseRoot.value) : null;
      const d = change(n);
      line('diff', then === null ? 'Not in the baseline (now ' + percent(n.value, root.value) + ')'
        : 'Baseline ' + then + ', now ' + percent(n.value, root.value) + ' (' + (d >= 0 ? '+' : '') + d.toFixed(2) + ' points)');
      if (n.gone && n.gone.length) {
        line('gone', 'Gone since the baseline: ' + n.gone.slice(0, 3)
          .map(g => g.func + ' ' + percent(g.value, baseRoot.value)).join(', ') + (n.gone.length > 3 ? ', ...' : ''));
      }
    }
    if (n.opcodes && n.opcodes.length) {
      const ops = n.opcodes.slice().sort((a, b) => b[1] - a[1]).slice(0, 3);
      const all = n.opcodes.reduce((sum, o) => sum + o[1], 0);
      line('opcodes', 'Opcodes: ' + ops.map(o => o[0] + ' ' + percent(o[1], all)).join(', '));
    }
    tooltip.hidden = false;
    const pad = 12;
    const x = Math.min(event.clientX + pad, window.innerWidth - tooltip.offsetWidth - pad);
    const y = event.clientY + tooltip.offsetHeight + 2 * pad > window.innerHeight
      ? event.clientY - tooltip.offsetHeight - pad : event.clientY + pad;
    tooltip.style.left = Math.max(0, x) + 'px';
    tooltip.style.top = Math.max(0, y) + 'px';
  }

  function hideTooltip() {
    tooltip.hidden = true;
  }

  function frameAt(event) {
    const el = event.target.closest('.frame');
    return el ? drawn[el.dataset.node] : null;
  }

  // ---- header and controls ------------------------------------------------------------------

  function renderMeta() {
    const m = data.meta;
    const seconds = m.durationNanos / 1e9;
    const items = [
      ['PID', m.pid],
      ['Python', m.pythonVersion || '?'],
      ['Mode', m.mode || '?'],
      ['Backend', m.backend || '?'],
      ['Interval', (m.intervalNanos / 1e6).toLocaleString('en-US', { maximumFractionDigits: 3 }) + ' ms'],
      ['Samples', number.format(m.samples)],
      ['Duration', seconds.toFixed(seconds < 10 ? 2 : 1) + ' s'],
      ['Achieved rate', m.achievedRate == null ? '?' : m.achievedRate.toFixed(1) + ' Hz'],
      ['Error rate', m.errorRate == null ? '?' : (100 * m.errorRate).toFixed(2) + '%'],
      ['Started', m.startEpochMillis > 0 ? new Date(m.startEpochMillis).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '?'],
    ];
    if (m.errors > 0) {
      const reasons = Object.entries(m.errorReasons || {}).map(([why, n]) => number.format(n) + ' ' + why);
      items.push(['Errors', number.format(m.errors) + (reasons.length ? ' (' + reasons.join(', ') + ')' : '')]);
    }
    if (m.missed > 0) items.push(['Missed', number.format(m.missed)]);
    if (baseline) {
      items.push(['Compared with', baseline.name + ' (' + number.format(baseline.samples) + ' samples): red grew, blue shrank, purple is new']);
    }
    const list = document.getElementById('meta');
    for (const [name, value] of items) {
      const item = document.createElement('div');
      const dt = document.createElement('dt');
      const dd = document.createElement('dd');
      dt.textContent = name + ':';
      dd.textContent = String(value);
      item.append(dt, dd);
      list.appendChild(item);
    }
  }

  function fillThreads() {
    const all = new Option('All threads', '-1');
    threadSelect.appendChild(all);
    data.threads.forEach((t, i) => {
      threadSelect.appendChild(new Option('Thread ' + t.tid + (t.name ? ' [' + t.name + ']' : ''), String(i)));
    });
  }

  chart.addEventListener('click', event => {
    const n = frameAt(event);
    if (n) zoomTo(n === zoomed && n.parent ? n.parent : n);
  });
  chart.addEventListener('mousemove', event => {
    const n = frameAt(event);
    if (n) showTooltip(n, event); else hideTooltip();
  });
  chart.addEventListener('mouseleave', hideTooltip);
  document.getElementById('reset').addEventListener('click', () => zoomTo(root));
  document.addEventListener('keydown', event => {
    if (event.key === 'Escape') zoomTo(root);
  });
  threadSelect.addEventListener('change', () => {
    state.thread = Number(threadSelect.value);
    rebuild(true);
    render();
  });
  invertBox.addEventListener('change', () => {
    state.inverted = invertBox.checked;
    rebuild(false); // a caller path means nothing in the inverted tree
    render();
  });
  searchBox.addEventListener('input', () => {
    state.query = searchBox.value.trim().toLowerCase();
    render();
  });
  window.addEventListener('resize', render);

  renderMeta();
  fillThreads();
  rebuild(false);
  render();
  document.body.dataset.ready = 'true';
})();
