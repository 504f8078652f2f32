// tag.html: draws TAG (tag.json, docs/report-format.md) with d3 (v3): the behaviour classes,
// each class representative's graph in a layered layout, sections, causal paths and the
// communication matrix. Every name is set with .text(), never as markup. <body data-status>
// ends as "ok", or "error: ..." if drawing failed.
(function () {
  'use strict';
  const T = TAG;
  const seconds = function (s) {
    if (s === null || s === undefined) return '-';
    const a = Math.abs(s);
    if (a >= 1) return s.toPrecision(3) + ' s';
    if (a >= 1e-3) return (s * 1e3).toPrecision(3) + ' ms';
    return (s * 1e6).toPrecision(3) + ' us';
  };
  const percent = function (v) { return (100 * v).toFixed(1) + ' %'; };
  const byRank = {};
  T.processes.forEach(function (p) { byRank[p.rank] = p; });
  const ranksText = function (ranks) { return ranks.join(', '); };
  const label = function (n) { return n.callsite ? n.callpath + ' @ ' + n.callsite : n.callpath; };

  function classesTable() {
    const table = d3.select('#classes');
    table.append('tr').selectAll('th').data(['class', 'ranks', 'time per process', 'nodes', 'edges'])
      .enter().append('th').text(function (d) { return d; });
    T.clusters.forEach(function (c, i) {
      const rep = byRank[c.representative];
      const tr = table.append('tr').attr('class', 'class-row');
      tr.append('td').text(String(i + 1));
      tr.append('td').text(ranksText(c.members));
      tr.append('td').attr('class', 'num').text(c.total_time.min === c.total_time.max
        ? seconds(c.total_time.min) : seconds(c.total_time.min) + ' to ' + seconds(c.total_time.max));
      tr.append('td').attr('class', 'num').text(String(rep.nodes.length));
      tr.append('td').attr('class', 'num').text(String(rep.edges.length));
    });
  }

  // Layers by the longest path from start over the flow edges that are not back edges (the
  // graph without them is acyclic), then the order within layers by the mean position of
  // each node's neighbours in the layer above (a few sweeps of the barycenter heuristic).
  function layout(p) {
    const n = p.nodes.length;
    const forward = p.edges.filter(function (e) { return e.kind === 'flow' && !e.back && e.from !== e.to; });
    const layer = new Array(n).fill(0);
    const indegree = new Array(n).fill(0);
    const out = p.nodes.map(function () { return []; });
    forward.forEach(function (e) { indegree[e.to]++; out[e.from].push(e.to); });
    const queue = [];
    for (let v = 0; v < n; ++v) if (indegree[v] === 0) queue.push(v);
    while (queue.length) {
      const v = queue.shift();
      out[v].forEach(function (w) {
        layer[w] = Math.max(layer[w], layer[v] + 1);
        if (--indegree[w] === 0) queue.push(w);
      });
    }
    const layers = [];
    for (let v = 0; v < n; ++v) (layers[layer[v]] = layers[layer[v]] || []).push(v);
    const position = new Array(n).fill(0);
    layers.forEach(function (l) { l.forEach(function (v, i) { position[v] = i; }); });
    const preds = p.nodes.map(function () { return []; });
    forward.forEach(function (e) { preds[e.to].push(e.from); });
    for (let sweep = 0; sweep < 4; ++sweep) {
      layers.forEach(function (l) {
        l.sort(function (a, b) {
          const ca = preds[a].length ? d3.mean(preds[a], function (u) { return position[u]; }) : position[a];
          const cb = preds[b].length ? d3.mean(preds[b], function (u) { return position[u]; }) : position[b];
          return ca - cb;
        });
        l.forEach(function (v, i) { position[v] = i; });
      });
    }
    return {layers: layers, layer: layer, position: position};
  }

  let selected = null;
  function drawGraph(classIndex) {
    const c = T.clusters[classIndex];
    const p = byRank[c.representative];
    const svg = d3.select('#graph');
    svg.selectAll('*').remove();
    const l = layout(p);
    const boxW = 170, boxH = 34, gapX = 30, gapY = 34;
    const widest = d3.max(l.layers, function (x) { return x ? x.length : 0; }) || 1;
    const width = Math.max(900, widest * (boxW + gapX) + 60);
    const height = Math.max(200, l.layers.length * (boxH + gapY) + 40);
    svg.attr('width', width).attr('height', height);
    const x = function (v) { return 30 + l.position[v] * (boxW + gapX); };
    const y = function (v) { return 20 + l.layer[v] * (boxH + gapY); };
    svg.append('defs').append('marker').attr('id', 'arrow').attr('viewBox', '0 0 10 10')
      .attr('refX', 9).attr('refY', 5).attr('markerWidth', 6).attr('markerHeight', 6)
      .attr('orient', 'auto').append('path').attr('d', 'M0,0L10,5L0,10z').attr('fill', '#5a6372');
    const local = p.edges.filter(function (e) { return e.kind === 'flow' || e.kind === 'completion'; });
    svg.selectAll('path.edge').data(local).enter().append('path')
      .attr('class', function (e) { return 'edge' + (e.back ? ' back' : '') + (e.kind === 'completion' ? ' completion' : ''); })
      .attr('stroke-width', function (e) { return 1 + 8 * (e.share || 0); })
      .attr('marker-end', 'url(#arrow)')
      .attr('d', function (e) {
        const x1 = x(e.from) + boxW / 2, y1 = y(e.from) + boxH;
        const x2 = x(e.to) + boxW / 2, y2 = y(e.to);
        if (e.from === e.to) {  // a self-edge: a loop on the box's right side
          const rx = x(e.from) + boxW, ry = y(e.from);
          return 'M' + rx + ',' + (ry + 8) + 'C' + (rx + 40) + ',' + (ry - 10) + ' ' + (rx + 40) + ',' +
                 (ry + boxH + 10) + ' ' + rx + ',' + (ry + boxH - 8);
        }
        if (e.kind === 'completion') {  // to the call it completed: around on the right
          const rx = Math.max(x(e.from), x(e.to)) + boxW + 20;
          return 'M' + (x(e.from) + boxW) + ',' + (y(e.from) + boxH / 2) + 'C' + rx + ',' +
                 (y(e.from) + boxH / 2) + ' ' + rx + ',' + (y(e.to) + boxH / 2) + ' ' +
                 (x(e.to) + boxW) + ',' + (y(e.to) + boxH / 2);
        }
        if (e.back) {  // upwards: around on the left
          const lx = Math.min(x(e.from), x(e.to)) - 20;
          return 'M' + x(e.from) + ',' + (y(e.from) + boxH / 2) + 'C' + lx + ',' + (y(e.from) + boxH / 2) + ' ' +
                 lx + ',' + (y(e.to) + boxH / 2) + ' ' + x(e.to) + ',' + (y(e.to) + boxH / 2);
        }
        return 'M' + x1 + ',' + y1 + 'C' + x1 + ',' + (y1 + gapY / 2) + ' ' + x2 + ',' + (y2 - gapY / 2) +
               ' ' + x2 + ',' + y2;
      })
      .append('title').text(function (e) {
        return e.kind + ' ' + p.nodes[e.from].name + ' -> ' + p.nodes[e.to].name + ': ' + e.count + ' times, ' +
               seconds(e.time) + (e.kind === 'flow' ? ' (' + percent(e.share) + ')' : '');
      });
    const nodes = svg.selectAll('g.node').data(p.nodes).enter().append('g')
      .attr('class', function (d) { return 'node' + (d.kind === 'mpi' || d.kind === 'region' ? '' : ' marker'); })
      .attr('transform', function (d) { return 'translate(' + x(d.id) + ',' + y(d.id) + ')'; })
      .on('click', function (d) { select(classIndex, d.id); });
    nodes.append('rect').attr('width', boxW).attr('height', boxH).attr('rx', 4)
      .attr('stroke-width', function (d) { return 1 + 6 * d.share; });
    nodes.append('text').attr('x', 6).attr('y', 14).text(function (d) { return d.name; });
    nodes.append('text').attr('x', 6).attr('y', 27).text(function (d) {
      return d.count + 'x, ' + seconds(d.time) + ' (' + percent(d.share) + ')';
    });
    nodes.append('title').text(label);
    selected = null;
    d3.select('#details').selectAll('*').remove();
    d3.select('#details').append('p').attr('class', 'hint').text('No node selected.');
  }

  // A node's statistics in the representative, and its value in every member of the class
  // (the member's node with the same call path and call site).
  function select(classIndex, id) {
    const c = T.clusters[classIndex];
    const p = byRank[c.representative];
    const n = p.nodes[id];
    selected = id;
    d3.selectAll('g.node').classed('selected', function (d) { return d.id === id; });
    const details = d3.select('#details');
    details.selectAll('*').remove();
    details.append('h3').attr('id', 'details-name').text(n.name);
    const stats = details.append('table');
    [['kind', n.kind], ['call path', n.callpath], ['call site', n.callsite || '-'],
     ['count', String(n.count)], ['time', seconds(n.time)], ['share', percent(n.share)],
     ['mean', seconds(n.mean)], ['min', seconds(n.min)], ['max', seconds(n.max)],
     ['stddev', seconds(n.stddev)]].concat(n.kind === 'loop_entry' ? [['iterations', String(n.iterations)]] : [])
      .forEach(function (row) {
        const tr = stats.append('tr');
        tr.append('td').text(row[0]);
        tr.append('td').text(row[1]);
      });
    const messages = p.edges.filter(function (e) {
      return (e.kind === 'message_out' && e.from === id) || (e.kind === 'message_in' && e.to === id);
    });
    if (messages.length) {
      details.append('h4').text('Messages');
      const m = details.append('table');
      messages.forEach(function (e) {
        const tr = m.append('tr').attr('class', 'message');
        tr.append('td').text((e.kind === 'message_out' ? 'to ' : 'from ') + e.peer + ' (' + e.via + ')');
        tr.append('td').attr('class', 'num').text(e.count + ' msgs, ' + e.bytes + ' B');
        if (e.delta_t) tr.append('td').attr('class', 'num').text('delta ' + seconds(e.delta_t.mean));
      });
    }
    details.append('h4').text('Members (' + c.members.length + ')');
    const members = details.append('table');
    members.append('tr').selectAll('th').data(['rank', 'count', 'time']).enter().append('th')
      .text(function (d) { return d; });
    c.members.forEach(function (r) {
      const other = byRank[r].nodes.filter(function (m) {
        return m.kind === n.kind && label(m) === label(n);
      })[0];
      const tr = members.append('tr').attr('class', 'member');
      tr.append('td').text(String(r));
      tr.append('td').attr('class', 'num').text(other ? String(other.count) : '-');
      tr.append('td').attr('class', 'num').text(other ? seconds(other.time) : '-');
    });
  }

  function sectionsTable() {
    const table = d3.select('#sections');
    table.append('tr').selectAll('th').data(['section', 'classes', 'time per process', 'slowest rank'])
      .enter().append('th').text(function (d) { return d; });
    T.sections.forEach(function (s) {
      const tr = table.append('tr');
      tr.append('td').text(s.label);
      tr.append('td').text(s.classes.map(function (c) { return '{' + ranksText(c.members) + '}'; }).join(' '));
      tr.append('td').attr('class', 'num').text(s.time ? seconds(s.time.min) + ' to ' + seconds(s.time.max) : '-');
      tr.append('td').attr('class', 'num').text(s.time ? String(s.time.slowest_rank) : '-');
    });
  }

  function pathsTable() {
    const table = d3.select('#paths');
    table.append('tr').selectAll('th').data(['class', 'loop', 'iterations', 'mean', 'steps (partner)'])
      .enter().append('th').text(function (d) { return d; });
    let rows = 0;
    T.clusters.forEach(function (c, i) {
      const p = byRank[c.representative];
      p.paths.slice().sort(function (a, b) { return b.count - a.count; }).slice(0, 20).forEach(function (path) {
        const tr = table.append('tr').attr('class', 'path');
        tr.append('td').text(String(i + 1));
        tr.append('td').text(p.nodes[path.loop].name);
        tr.append('td').attr('class', 'num').text(String(path.count));
        tr.append('td').attr('class', 'num').text(seconds(path.mean));
        tr.append('td').text(path.steps.map(function (s) {
          return p.nodes[s.node].name + (s.peer === null ? '' : ' (' + s.peer + ')');
        }).join(', ') + (path.truncated ? ', ...' : ''));
        ++rows;
      });
    });
    return rows;
  }

  // The communication-phase view (Sikora et al. 2016 §5.3): one row and column per process.
  function communication() {
    const svg = d3.select('#communication');
    const ranks = T.processes.map(function (p) { return p.rank; });
    const size = +svg.attr('width'), margin = 30;
    const cell = (size - margin) / Math.max(1, ranks.length);
    const index = {};
    ranks.forEach(function (r, i) { index[r] = i; });
    const top = d3.max(T.communication_view, function (e) { return e.bytes; }) || 1;
    const shade = d3.scale.linear().domain([0, top]).range(['#e6eef8', '#1d3557']);
    svg.selectAll('rect.cell').data(T.communication_view).enter().append('rect').attr('class', 'cell')
      .attr('x', function (e) { return margin + index[e.to_rank] * cell; })
      .attr('y', function (e) { return margin + index[e.from_rank] * cell; })
      .attr('width', cell).attr('height', cell)
      .attr('fill', function (e) { return shade(e.bytes); })
      .append('title').text(function (e) {
        return e.from_rank + ' -> ' + e.to_rank + ': ' + e.count + ' messages, ' + e.bytes + ' bytes';
      });
    if (ranks.length <= 32) {
      ranks.forEach(function (r, i) {
        svg.append('text').attr('x', margin + (i + 0.5) * cell).attr('y', 20).attr('text-anchor', 'middle').text(String(r));
        svg.append('text').attr('x', 20).attr('y', margin + (i + 0.6) * cell).attr('text-anchor', 'end').text(String(r));
      });
    }
  }

  try {
    d3.select('#source').text(T.source + (T.recorded === 'online' ? ' (recorded online)' : '') +
                              (T.window ? ', window ' + T.window : ''));
    T.notes.forEach(function (n) { d3.select('#notes').append('li').text(n); });
    classesTable();
    const choice = d3.select('#class-choice');
    T.clusters.forEach(function (c, i) {
      choice.append('option').attr('value', i).text('class ' + (i + 1) + ': ranks ' + ranksText(c.members));
    });
    choice.on('change', function () { drawGraph(+this.value); });
    // #node=C.N opens class C's graph with its node N selected (a link to a node).
    const link = /^#node=(\d+)\.(\d+)$/.exec(window.location.hash);
    const start = link && +link[1] < T.clusters.length ? +link[1] : 0;
    if (T.clusters.length) {
      choice.property('value', start);
      drawGraph(start);
      if (link && +link[2] < byRank[T.clusters[start].representative].nodes.length) select(start, +link[2]);
    }
    sectionsTable();
    if (!pathsTable()) d3.select('#paths-section').style('display', 'none');
    communication();
    document.body.setAttribute('data-status', 'ok');
  } catch (e) {
    document.body.setAttribute('data-status', 'error: ' + e.message);
    throw e;
  }
})();
