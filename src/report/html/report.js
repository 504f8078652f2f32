// The script of report.html: draws the data causeway computed (CAUSEWAY) with d3 (v3, Debian's
// libjs-d3). Names from the trace are only ever set as text (textContent, d3's .text()), never
// as markup. <body data-status> ends as "ok", or "error: ..." if drawing failed.
(function () {
  'use strict';
  const D = CAUSEWAY;
  const CATEGORY_COLOURS = ['#2a9d8f', '#457b9d', '#8d6cab', '#e63946', '#b0b7c3', '#e9c46a'];

  function seconds(s) {
    if (s === 0) return '0 s';
    const a = Math.abs(s);
    if (a >= 1) return s.toFixed(a >= 100 ? 0 : 2) + ' s';
    if (a >= 1e-3) return (s * 1e3).toFixed(2) + ' ms';
    if (a >= 1e-6) return (s * 1e6).toFixed(2) + ' us';
    return (s * 1e9).toFixed(0) + ' ns';
  }
  function bytes(b) {
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let i = 0;
    while (b >= 1024 && i < units.length - 1) { b /= 1024; ++i; }
    return (i === 0 ? b.toFixed(0) : b.toFixed(1)) + ' ' + units[i];
  }
  function percent(x) { return (100 * x).toFixed(1) + ' %'; }
  // Tick labels for an axis over [from, to] seconds: as many decimals as the span needs.
  function secondsTicks(from, to) {
    const span = Math.max(1e-12, to - from);
    const decimals = Math.max(0, Math.min(9, 2 - Math.floor(Math.log10(span))));
    return function (s) { return s.toFixed(decimals) + ' s'; };
  }
  function value(v, unit) {
    if (unit === 's') return seconds(v);
    if (unit === 'B') return bytes(v);
    return String(Math.round(v));
  }
  function element(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function bar(fraction, width) {
    const b = element('span', undefined, 'bar');
    b.style.width = Math.max(0, Math.min(1, fraction)) * width + 'px';
    return b;
  }
  // White to dark red: the colour scale of shares.
  const heat = d3.scale.linear().domain([0, 0.5, 1]).range(['#ffffff', '#f4a261', '#9d0208']);

  // ---- Overview ------------------------------------------------------------------------------
  // Messages and collectives, and the one-sided transfers where there were any.
  function communicationText(c) {
    let text = c.messages + ' messages matched (' + bytes(c.bytes_sent) + ' sent), ' +
      c.collectives + ' collective operations';
    if (c.puts + c.gets > 0) {
      text += ', ' + (c.puts + c.gets) + ' one-sided transfers (' + c.puts + ' puts of ' +
        bytes(c.bytes_put) + ', ' + c.gets + ' gets of ' + bytes(c.bytes_got) + ')';
    }
    return text;
  }

  function renderOverview() {
    const o = D.overview;
    document.getElementById('trace-path').textContent = o.path;
    const facts = document.getElementById('facts');
    [['Runtime', seconds(o.pop ? o.pop.runtime : o.duration)],
     ['Processes', String(o.processes)], ['Locations', String(o.locations)],
     ['Events', String(o.events)], ['Written by', o.creator || 'unknown'],
     ['Communication', communicationText(o.communication)]].concat(o.file_io ?
       [['File I/O', o.file_io.reads + ' reads, ' + o.file_io.writes + ' writes on ' +
         o.file_io.files + (o.file_io.files === 1 ? ' file: ' : ' files: ') +
         bytes(o.file_io.bytes_read) + ' read, ' + bytes(o.file_io.bytes_written) +
         ' written']] : []).forEach(function (f) {
      facts.appendChild(element('dt', f[0]));
      facts.appendChild(element('dd', f[1]));
    });
    const findings = document.getElementById('findings');
    D.findings.forEach(function (f) { findings.appendChild(element('li', f)); });

    const pop = document.getElementById('pop');
    const p = o.pop;
    const rows = p && !p.unavailable ? [
      ['Parallel efficiency', p.parallel_efficiency, 0],
      ['Load balance', p.load_balance, 1],
      ['Communication efficiency', p.communication_efficiency, 1],
      ['Serialisation', p.serialisation_efficiency, 2],
      ['Transfer', p.transfer_efficiency, 2]] : [];
    if (p && !p.unavailable && p.mpi_parallel_efficiency !== undefined) {
      rows.push(['MPI parallel efficiency (OpenMP counts as useful)', p.mpi_parallel_efficiency, 0],
                ['MPI load balance', p.mpi_load_balance, 1],
                ['MPI communication efficiency', p.mpi_communication_efficiency, 1],
                ['OpenMP parallel efficiency', p.openmp_parallel_efficiency, 0],
                ['OpenMP load balance', p.openmp_load_balance, 1],
                ['OpenMP communication efficiency', p.openmp_communication_efficiency, 1]);
    }
    rows.forEach(function (r) {
      const tr = element('tr');
      const name = element('td', r[0]);
      name.style.paddingLeft = (r[2] * 16) + 'px';
      tr.appendChild(name);
      tr.appendChild(element('td', r[1] === null ? 'n/a' : percent(r[1]), 'num'));
      const cell = element('td');
      if (r[1] !== null) cell.appendChild(bar(r[1], 160));
      tr.appendChild(cell);
      pop.appendChild(tr);
    });
    if (!p) pop.appendChild(element('tr', 'not available for this trace'));
    if (p && p.unavailable) pop.appendChild(element('tr', p.unavailable));

    const breakdown = document.getElementById('breakdown');
    o.breakdown.forEach(function (b) {
      const tr = element('tr');
      const name = element('td', b.label);
      name.style.paddingLeft = (b.depth * 16) + 'px';
      tr.appendChild(name);
      tr.appendChild(element('td', seconds(b.seconds), 'num'));
      tr.appendChild(element('td', percent(b.share), 'num'));
      const cell = element('td');
      cell.appendChild(bar(b.share, 160));
      tr.appendChild(cell);
      breakdown.appendChild(tr);
    });
  }

  // ---- Browser -------------------------------------------------------------------------------
  const B = D.browser;
  const byMetric = B.metrics.map(function () { return []; });
  B.values.forEach(function (v) { byMetric[v[0]].push(v); });
  const state = { metric: 0, callpath: null };

  function tree(parentOf, count) {
    const children = [];
    const roots = [];
    for (let i = 0; i < count; ++i) children.push([]);
    for (let i = 0; i < count; ++i) (parentOf(i) < 0 ? roots : children[parentOf(i)]).push(i);
    return { roots: roots, children: children };
  }
  const metricTree = tree(function (i) { return B.metrics[i].parent; }, B.metrics.length);
  const callTree = tree(function (i) { return B.callpaths[i][1]; }, B.callpaths.length);

  function metricTotal(m) {
    let s = 0;
    byMetric[m].forEach(function (v) { s += v[3]; });
    return s;
  }
  function item(list, label, amount, share, selected, onClick, title) {
    const li = element('li');
    const span = element('span');
    const swatch = element('i', undefined, 'swatch');
    swatch.style.background = heat(Math.max(0, Math.min(1, share)));
    span.appendChild(swatch);
    span.appendChild(document.createTextNode(label));
    span.appendChild(element('span', amount + ' (' + percent(share) + ')', 'value'));
    if (selected) span.className = 'selected';
    if (title) span.title = title;
    span.addEventListener('click', onClick);
    li.appendChild(span);
    list.appendChild(li);
    return li;
  }

  function renderMetrics() {
    const list = document.getElementById('metric-tree');
    list.textContent = '';
    const rootTotal = Math.max(1e-300, metricTotal(metricTree.roots[0] || 0));
    function add(into, m) {
      const info = B.metrics[m];
      const total = metricTotal(m);
      const li = item(into, info.display, value(total, info.unit),
                      info.unit === B.metrics[metricTree.roots[0] || 0].unit ? total / rootTotal : 1,
                      m === state.metric,
                      function () { state.metric = m; state.callpath = null; renderBrowser(); },
                      info.name + ': ' + info.description);
      if (metricTree.children[m].length) {
        const sub = element('ul', undefined, 'tree');
        metricTree.children[m].forEach(function (c) { add(sub, c); });
        li.appendChild(sub);
      }
    }
    metricTree.roots.forEach(function (m) { add(list, m); });
  }

  function renderCallpaths() {
    const list = document.getElementById('callpath-tree');
    list.textContent = '';
    const per = new Array(B.callpaths.length).fill(0);
    byMetric[state.metric].forEach(function (v) { per[v[1]] += v[3]; });
    const total = Math.max(1e-300, per.reduce(function (a, b) { return a + b; }, 0));
    // Inclusive along the call tree, for the collapsed view of a subtree.
    const inclusive = per.slice();
    for (let i = B.callpaths.length - 1; i >= 0; --i) {
      const parent = B.callpaths[i][1];
      if (parent >= 0) inclusive[parent] += inclusive[i];
    }
    const unit = B.metrics[state.metric].unit;
    function add(into, c, depth) {
      if (inclusive[c] === 0) return;
      // Walked call paths with debug information say where they are called from.
      const site = B.callpaths[c][2];
      const li = item(into, B.callpaths[c][0] + (site ? ' (' + site + ')' : ''),
                      value(per[c], unit), per[c] / total, c === state.callpath,
                      function (e) { e.stopPropagation(); state.callpath = c; renderBrowser(); },
                      'inclusive: ' + value(inclusive[c], unit) +
                          (site ? '; called at ' + site : ''));
      const kids = callTree.children[c].filter(function (k) { return inclusive[k] > 0; });
      if (kids.length && depth < 64) {
        const sub = element('ul', undefined, 'tree');
        kids.forEach(function (k) { add(sub, k, depth + 1); });
        li.appendChild(sub);
      }
    }
    callTree.roots.forEach(function (c) { add(list, c, 0); });
    if (!list.childNodes.length) list.appendChild(element('li', 'no values for this metric'));
  }

  function renderLocations() {
    const list = document.getElementById('location-list');
    list.textContent = '';
    const per = new Array(B.locations.length).fill(0);
    byMetric[state.metric].forEach(function (v) {
      if (state.callpath === null || v[1] === state.callpath) per[v[2]] += v[3];
    });
    const max = Math.max(1e-300, d3.max(per) || 0);
    const unit = B.metrics[state.metric].unit;
    per.forEach(function (v, l) {
      item(list, B.locations[l][0], value(v, unit), v / max, false, function () {});
    });
  }

  function renderBrowser() {
    if (!B.metrics.length) {
      document.getElementById('metric-tree').appendChild(element('li', 'no values'));
      return;
    }
    renderMetrics();
    renderCallpaths();
    renderLocations();
  }

  // ---- Charts --------------------------------------------------------------------------------
  function svg(containerId, width, height, cls) {
    return d3.select('#' + containerId).append('svg')
      .attr('class', cls).attr('width', width).attr('height', height);
  }
  function legend(containerId, names, colours) {
    const div = d3.select('#' + containerId).append('div').attr('class', 'legend');
    names.forEach(function (n, i) {
      const s = div.append('span');
      s.append('i').style('background', colours[i]);
      s.append('b').text(n);
    });
  }

  function renderStacked() {
    const rows = D.categories.rows;
    const names = D.categories.names;
    const labels = B.locations.map(function (l) { return l[0]; });
    const margin = { left: 140, right: 20, top: 10, bottom: 30 };
    const band = Math.max(6, Math.min(22, 600 / Math.max(1, rows.length)));
    const width = 900, height = margin.top + margin.bottom + band * rows.length;
    const chart = svg('chart-stacked', width, height, 'chart-stacked');
    const totals = rows.map(function (r) { return d3.sum(r); });
    const x = d3.scale.linear().domain([0, d3.max(totals) || 1])
      .range([margin.left, width - margin.right]);
    rows.forEach(function (r, l) {
      let at = 0;
      const y = margin.top + l * band;
      r.forEach(function (v, c) {
        if (v <= 0) return;
        chart.append('rect').attr('x', x(at)).attr('y', y + 1)
          .attr('width', Math.max(0.5, x(at + v) - x(at))).attr('height', band - 2)
          .attr('fill', CATEGORY_COLOURS[c])
          .append('title').text(labels[l] + ': ' + names[c] + ' ' + seconds(v));
        at += v;
      });
      if (band >= 10) {
        chart.append('text').attr('x', margin.left - 6).attr('y', y + band / 2 + 4)
          .attr('text-anchor', 'end').text(labels[l]);
      }
    });
    chart.append('g').attr('class', 'axis')
      .attr('transform', 'translate(0,' + (height - margin.bottom) + ')')
      .call(d3.svg.axis().scale(x).orient('bottom').ticks(8).tickFormat(seconds));
    legend('chart-stacked', names, CATEGORY_COLOURS);
  }

  function grid(containerId, cls, rowLabels, columnLabels, cells, format) {
    const margin = { left: 260, top: 10, right: 20, bottom: 40 };
    const cell = Math.max(3, Math.min(18, 640 / Math.max(1, columnLabels.length)));
    const rowHeight = Math.max(cell, 14);
    const width = margin.left + margin.right + cell * columnLabels.length;
    const height = margin.top + margin.bottom + rowHeight * rowLabels.length;
    const chart = svg(containerId, Math.max(width, 320), height, cls);
    const max = d3.max(cells, function (r) { return d3.max(r); }) || 1;
    cells.forEach(function (row, i) {
      chart.append('text').attr('x', margin.left - 6).attr('y', margin.top + i * rowHeight + rowHeight / 2 + 4)
        .attr('text-anchor', 'end').text(rowLabels[i].length > 40 ? '...' + rowLabels[i].slice(-38) : rowLabels[i])
        .append('title').text(rowLabels[i]);
      row.forEach(function (v, j) {
        chart.append('rect').attr('x', margin.left + j * cell).attr('y', margin.top + i * rowHeight)
          .attr('width', cell - 0.5).attr('height', rowHeight - 0.5)
          .attr('fill', heat(v / max))
          .append('title').text(rowLabels[i] + ' / ' + columnLabels[j] + ': ' + format(v));
      });
    });
    chart.append('text').attr('x', margin.left).attr('y', height - 12)
      .text(columnLabels.length + ' columns: ' + columnLabels[0] + ' ... ' +
            columnLabels[columnLabels.length - 1] + '; darkest = ' + format(max));
    return chart;
  }

  function renderHeatmap() {
    const h = D.heatmap;
    if (!h.rows.length) {
      d3.select('#chart-heatmap').append('p').text('No waiting was found.');
      return;
    }
    grid('chart-heatmap', 'chart-heatmap', h.callpaths,
         B.locations.map(function (l) { return l[0]; }), h.rows, seconds);
  }

  function renderMatrix() {
    const c = D.communication;
    const labels = [];
    for (let i = 0; i < c.side; ++i) {
      labels.push(c.bin === 1 ? c.by + ' ' + i : c.by + 's ' + i * c.bin + '-' + ((i + 1) * c.bin - 1));
    }
    const select = document.getElementById('matrix-measure');
    function draw() {
      d3.select('#chart-matrix').selectAll('*').remove();
      if (!c.side) {
        d3.select('#chart-matrix').append('p').text('No messages.');
        return;
      }
      const measure = select.value;
      grid('chart-matrix', 'chart-matrix', labels, labels, c[measure],
           measure === 'bytes' ? bytes : function (v) { return String(v) + ' messages'; });
    }
    select.addEventListener('change', draw);
    draw();
  }

  function renderHistogram() {
    const sizes = D.communication.sizes;
    if (!sizes.length) {
      d3.select('#chart-histogram').append('p').text('No messages.');
      return;
    }
    const margin = { left: 60, right: 20, top: 10, bottom: 50 };
    const width = 900, height = 260;
    const chart = svg('chart-histogram', width, height, 'chart-histogram');
    const labels = sizes.map(function (s) {
      return s.to === 0 ? 'empty' : bytes(s.from) + '-' + bytes(s.to);
    });
    const x = d3.scale.ordinal().domain(labels).rangeRoundBands([margin.left, width - margin.right], 0.1);
    const y = d3.scale.linear().domain([0, d3.max(sizes, function (s) { return s.count; }) || 1])
      .range([height - margin.bottom, margin.top]);
    sizes.forEach(function (s, i) {
      chart.append('rect').attr('x', x(labels[i])).attr('width', x.rangeBand())
        .attr('y', y(s.count)).attr('height', height - margin.bottom - y(s.count))
        .attr('fill', '#457b9d').append('title').text(labels[i] + ': ' + s.count + ' messages');
    });
    chart.append('g').attr('class', 'axis').attr('transform', 'translate(0,' + (height - margin.bottom) + ')')
      .call(d3.svg.axis().scale(x).orient('bottom'))
      .selectAll('text').attr('transform', 'rotate(-20)').style('text-anchor', 'end');
    chart.append('g').attr('class', 'axis').attr('transform', 'translate(' + margin.left + ',0)')
      .call(d3.svg.axis().scale(y).orient('left').ticks(6));
  }

  // ---- Worst waits ---------------------------------------------------------------------------
  function renderTimelines() {
    const container = d3.select('#timelines');
    if (!D.timelines.length) {
      container.append('p').text('No wait-state instances were kept.');
      return;
    }
    const depthColour = d3.scale.ordinal().range(['#a8dadc', '#83c5be', '#bde0fe', '#cdb4db', '#ffc8dd', '#fde2e4']);
    D.timelines.forEach(function (t, k) {
      const block = container.append('div').attr('class', 'timeline');
      block.append('h3').text((k + 1) + '. ' + t.metric + ': ' + seconds(t.seconds) + ' at ' + t.callpath + ' on ' + t.location);
      const margin = { left: 160, right: 20, top: 10, bottom: 30 };
      const trackHeight = 70, width = 1000;
      const height = margin.top + margin.bottom + trackHeight * t.tracks.length;
      const chart = block.append('svg').attr('class', 'chart-timeline').attr('width', width).attr('height', height);
      const x = d3.scale.linear().domain([t.from, t.to]).range([margin.left, width - margin.right]);
      chart.append('rect').attr('class', 'wait').attr('x', x(t.wait_from)).attr('y', margin.top)
        .attr('width', Math.max(1, x(t.wait_to) - x(t.wait_from))).attr('height', trackHeight)
        .attr('fill', '#e63946').attr('opacity', 0.25)
        .append('title').text('waiting ' + seconds(t.seconds));
      t.tracks.forEach(function (track, i) {
        const top = margin.top + i * trackHeight;
        chart.append('text').attr('x', margin.left - 6).attr('y', top + trackHeight / 2)
          .attr('text-anchor', 'end').text(track.label);
        track.slices.forEach(function (s) {
          const depth = s[0], rowH = 9;
          const y = top + 4 + Math.min(depth, 6) * rowH;
          const w = Math.max(0.5, x(s[2]) - x(s[1]));
          const g = chart.append('g');
          g.append('rect').attr('x', x(s[1])).attr('y', y).attr('width', w).attr('height', rowH - 1)
            .attr('fill', depthColour(depth % 6)).attr('stroke', '#0003')
            .append('title').text(s[3] + ': ' + seconds(s[2] - s[1]));
          if (w > 60) g.append('text').attr('x', x(s[1]) + 2).attr('y', y + rowH - 2).text(s[3]).style('font-size', '8px');
        });
      });
      t.arrows.forEach(function (a) {
        chart.append('line').attr('x1', x(a[1])).attr('y1', margin.top + a[0] * trackHeight + trackHeight - 6)
          .attr('x2', x(a[3])).attr('y2', margin.top + a[2] * trackHeight + trackHeight - 6)
          .attr('stroke', '#1d3557').attr('stroke-width', 1.5)
          .append('title').text('message');
      });
      chart.append('g').attr('class', 'axis').attr('transform', 'translate(0,' + (height - margin.bottom) + ')')
        .call(d3.svg.axis().scale(x).orient('bottom').ticks(8)
          .tickFormat(secondsTicks(t.from, t.to)));
    });
  }

  // ---- Bottlenecks ---------------------------------------------------------------------------
  // PPW's multi-table view: the findings; for the selected one its instances by pattern, its
  // remote causes, the hints, and its call path's time on each location.
  function row(table, cells, header) {
    const tr = element('tr');
    cells.forEach(function (c) { tr.appendChild(element(header ? 'th' : 'td', c)); });
    table.appendChild(tr);
    return tr;
  }
  function clear(id) {
    const e = document.getElementById(id);
    while (e.firstChild) e.removeChild(e.firstChild);
    return e;
  }
  function renderBalance(f) {
    clear('chart-balance');
    const rows = f.balance;
    if (rows.length === 0) return;
    const margin = { left: 140, right: 20, top: 10, bottom: 30 };
    const band = Math.max(6, Math.min(22, 400 / rows.length));
    const width = 520, height = margin.top + margin.bottom + band * rows.length;
    const chart = svg('chart-balance', width, height, 'chart-balance');
    const x = d3.scale.linear().domain([0, d3.max(rows, function (r) { return r[1]; }) || 1])
      .range([margin.left, width - margin.right]);
    const mean = d3.mean(rows, function (r) { return r[1]; });
    rows.forEach(function (r, i) {
      const y = margin.top + i * band;
      chart.append('rect').attr('x', x(0)).attr('y', y + 1)
        .attr('width', Math.max(0.5, x(r[1]) - x(0))).attr('height', band - 2)
        .attr('fill', r[1] > mean ? '#e63946' : '#457b9d')
        .append('title').text(r[0] + ': ' + seconds(r[1]));
      if (band >= 10) {
        chart.append('text').attr('x', margin.left - 6).attr('y', y + band / 2 + 4)
          .attr('text-anchor', 'end').text(r[0]);
      }
    });
    chart.append('line').attr('x1', x(mean)).attr('x2', x(mean)).attr('y1', margin.top)
      .attr('y2', height - margin.bottom).attr('stroke', '#1d2430').attr('stroke-dasharray', '4,3')
      .append('title').text('mean ' + seconds(mean));
    chart.append('g').attr('class', 'axis')
      .attr('transform', 'translate(0,' + (height - margin.bottom) + ')')
      .call(d3.svg.axis().scale(x).orient('bottom').ticks(4).tickFormat(seconds));
  }
  function selectFinding(index, rows) {
    const f = D.advice.findings[index];
    rows.forEach(function (tr, i) { tr.className = i === index ? 'row selected' : 'row'; });
    const instances = clear('advice-instances');
    row(instances, ['pattern', 'instances'], true);
    f.counts.forEach(function (c) { row(instances, [c[0], String(c[1])]); });
    const causes = clear('advice-causes');
    if (f.causes.length === 0) {
      causes.appendChild(element('tr', 'none: no remote operation made it wait'));
    } else {
      row(causes, ['location', 'call path', 'waiting caused', 'instances'], true);
      f.causes.forEach(function (c) { row(causes, [c[0], c[1], seconds(c[2]), String(c[3])]); });
    }
    const roots = clear('advice-roots');
    if (f.roots.length === 0) {
      roots.appendChild(element('tr', 'none: no computation found behind it'));
    } else {
      row(roots, ['location', 'call path', 'computes', 'found by', 'against'], true);
      f.roots.forEach(function (r) {
        row(roots, [r[0], r[1], seconds(r[2]), r[3],
          r[3] === 'delay' ? seconds(r[4]) + ' of this waiting caused'
                           : 'mean ' + seconds(r[5])]);
      });
    }
    const hints = clear('advice-hints');
    f.hints.forEach(function (h) { hints.appendChild(element('li', h)); });
    if (f.saving === null) {
      hints.appendChild(element('li', 'What fixing it saves is not predicted: ' +
        f.no_prediction + '.'));
    }
    if (f.same_fix_as !== null) {
      hints.appendChild(element('li', 'The same fix as finding ' + f.same_fix_as +
        ' (the same root causes): its saving is not in addition to that one\'s.'));
    }
    renderBalance(f);
  }
  function renderAdvice() {
    const note = document.getElementById('advice-note');
    const A = D.advice;
    if (!A) {
      note.textContent = 'Not analysed: causeway analyze ran with --no-advice.';
      document.getElementById('advice-details').style.display = 'none';
      return;
    }
    note.textContent = (A.baselines ? 'Baselines: ' + A.baselines + '. '
      : 'No baselines: the deviation filter only. ') +
      'Select a finding for its instances, causes and load balance.';
    if (A.saving_nothing.length > 0) {
      note.textContent += ' Not bottlenecks (fixing them is predicted to save no runtime): ' +
        A.saving_nothing.join(', ') + '.';
    }
    if (A.findings.length === 0) {
      note.textContent += ' No bottleneck found.';
      document.getElementById('advice-details').style.display = 'none';
      return;
    }
    const table = document.getElementById('advice-findings');
    row(table, ['#', 'pattern', 'call path', 'where', 'found by', 'beyond expected',
      'predicted saving'], true);
    const rows = A.findings.map(function (f, i) {
      const tr = row(table, [String(i + 1), f.pattern, f.callpath,
        f.where.join(', ') + (f.more > 0 ? ' and ' + f.more + ' more' : ''), f.filter,
        seconds(f.excess), (f.saving === null ? 'not predicted' : seconds(f.saving)) +
          (f.same_fix_as !== null ? ' (as #' + f.same_fix_as + ')' : '')]);
      if (f.saving === null) tr.lastChild.title = f.no_prediction;
      tr.addEventListener('click', function () { selectFinding(i, rows); });
      return tr;
    });
    selectFinding(0, rows);
  }

  // ---- Sections ------------------------------------------------------------------------------
  function route() {
    // The bottlenecks open the report; without the analysis, the overview does.
    const first = D.advice ? 'bottlenecks' : 'overview';
    const id = (location.hash || '#' + first).slice(1);
    const known = ['overview', 'bottlenecks', 'browser', 'charts', 'instances'];
    const shown = known.indexOf(id) >= 0 ? id : first;
    known.forEach(function (s) {
      document.getElementById(s).className = s === shown ? 'shown' : '';
    });
  }

  try {
    renderOverview();
    renderAdvice();
    renderBrowser();
    renderStacked();
    renderHeatmap();
    renderMatrix();
    renderHistogram();
    renderTimelines();
    route();
    window.addEventListener('hashchange', route);
    document.body.setAttribute('data-status', 'ok');
  } catch (e) {
    document.body.setAttribute('data-status', 'error: ' + e.message);
    throw e;
  }
})();
