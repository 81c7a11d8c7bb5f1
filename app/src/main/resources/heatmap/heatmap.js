'use strict';
// The heatmap page: lists the sampled files by samples, shows the chosen file's source with each line
// shaded by its share of the samples (total: on the stack; own: running), and jumps from a function
// to its lines. The data layout is documented in HeatmapData.java.
(function () {
  const data = JSON.parse(document.getElementById('heatmap-data').textContent);
  const filesNav = document.getElementById('files');
  const body = document.querySelector('#source tbody');
  const number = new Intl.NumberFormat('en-US');
  let chosen = -1;

  function percent(part) {
    return data.meta.samples > 0 ? (100 * part / data.meta.samples).toFixed(2) + '%' : '0%';
  }

  function renderMeta() {
    const m = data.meta;
    // Every tick that gave no stack is said, with why.
    const errors = number.format(m.errors) + ' error' + (m.errors === 1 ? '' : 's') + (m.errorReasons ? ' (' + m.errorReasons + ')' : '');
    document.getElementById('meta').textContent = 'PID ' + m.pid + ' · Python ' + (m.pythonVersion || '?') + ' · '
      + m.mode + ' mode · ' + number.format(m.samples) + ' samples in ' + number.format(m.ticks) + ' ticks · ' + errors
      + ' · ' + data.files.length + ' files';
  }

  function renderFiles() {
    data.files.forEach((f, i) => {
      const a = document.createElement('a');
      a.className = 'file';
      a.dataset.index = i;
      const count = document.createElement('span');
      count.className = 'count';
      count.textContent = percent(f.samples);
      a.append(count, document.createTextNode(f.path));
      a.addEventListener('click', () => choose(i));
      filesNav.appendChild(a);
    });
  }

  // Shade: the line's total share of the file's hottest line, as red behind the text.
  function shade(total, max) {
    return max > 0 && total > 0 ? 'rgba(229, 57, 53, ' + (0.08 + 0.72 * total / max).toFixed(3) + ')' : '';
  }

  function choose(index, line) {
    chosen = index;
    const f = data.files[index];
    for (const a of filesNav.children) a.classList.toggle('chosen', Number(a.dataset.index) === index);
    document.getElementById('path').textContent = f.path;
    const functions = document.getElementById('functions');
    functions.textContent = '';
    for (const [name, first, own, total] of f.functions) {
      const a = document.createElement('a');
      a.textContent = name + ' (' + percent(total) + ')';
      a.title = 'own ' + percent(own) + ', total ' + percent(total) + ', from line ' + first;
      a.addEventListener('click', () => jump(first));
      functions.appendChild(a);
    }
    const counts = new Map(f.lines.map(([n, own, total]) => [n, [own, total]]));
    const max = f.lines.reduce((m, l) => Math.max(m, l[2]), 0);
    const source = f.source || [];
    // Every line of the source, and the sampled lines past its end (or of a file not read): never a
    // row per number up to a line number no file has.
    const numbers = source.map((_, i) => i + 1).concat(f.lines.map(l => l[0]).filter(n => n > source.length));
    body.textContent = '';
    for (const n of numbers) {
      const [own, total] = counts.get(n) || [0, 0];
      const tr = document.createElement('tr');
      tr.id = 'L' + n;
      tr.dataset.total = total;
      const cells = [String(n), own ? number.format(own) : '', total ? number.format(total) : ''];
      for (const text of cells) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.appendChild(td);
      }
      const code = document.createElement('td');
      code.className = 'code';
      if (f.source) {
        code.textContent = source[n - 1] === undefined ? '' : source[n - 1];
      } else if (n === numbers[0]) {
        code.textContent = '(source not available)';
        code.classList.add('missing');
      }
      code.style.background = shade(total, max);
      tr.appendChild(code);
      body.appendChild(tr);
    }
    if (line) jump(line);
  }

  function jump(line) {
    for (const tr of body.querySelectorAll('tr.jumped')) tr.classList.remove('jumped');
    const tr = document.getElementById('L' + line);
    if (!tr) return;
    tr.classList.add('jumped');
    tr.scrollIntoView({ block: 'center' });
  }

  renderMeta();
  renderFiles();
  if (data.files.length) choose(0);
  document.body.dataset.ready = 'true';
})();
