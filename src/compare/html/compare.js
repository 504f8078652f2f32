// compare.html: draws COMPARE (compare.json, docs/report-format.md) with d3 (v3). Every name is
// set with .text(), never as markup. <body data-status> ends as "ok", or "error: ..." if
// drawing failed.
(function () {
  'use strict';
  const C = COMPARE;
  const colors = d3.scale.category10();
  const seconds = function (s) {
    if (s === null || s === undefined) return '-';
    const a = Math.abs(s);
    if (a >= 1) return s.toPrecision(3) + ' s';
    if (a >= 1e-3) return (s * 1e3).toPrecision(3) + ' ms';
    return (s * 1e6).toPrecision(3) + ' us';
  };
  const percent = function (v) { return v === null || v === undefined ? '-' : (100 * v).toFixed(1) + ' %'; };
  const show = function (id, on) { document.getElementById(id).style.display = on ? '' : 'none'; };

  // The model of compare.json's `terms` at p processes.
  function model(terms, p) {
    return terms.c0 + terms.c1 * Math.pow(p, terms.i) * Math.pow(Math.log(p) / Math.LN2, terms.j);
  }

  function axes(svg, x, y, width, height, margin, xLabel, yFormat) {
    svg.append('g').attr('class', 'axis').attr('transform', 'translate(0,' + (height - margin.bottom) + ')')
      .call(d3.svg.axis().scale(x).orient('bottom').ticks(6, ',.0f'));
    svg.append('g').attr('class', 'axis').attr('transform', 'translate(' + margin.left + ',0)')
      .call(d3.svg.axis().scale(y).orient('left').ticks(6).tickFormat(yFormat));
    svg.append('text').attr('x', width - margin.right).attr('y', height - 4)
      .attr('text-anchor', 'end').text(xLabel);
  }

  function runsTable() {
    const table = d3.select('#runs');
    const head = ['run', 'processes', 'repetitions', 'runtime', 'spread', 'efficiency',
                  'parallel', 'load balance', 'communication', 'serialisation', 'transfer',
                  'computation scal.'];
    table.append('tr').selectAll('th').data(head).enter().append('th').text(function (d) { return d; });
    C.runs.forEach(function (r) {
      const tr = table.append('tr');
      tr.append('td').text(r.label);
      [String(r.processes), String(r.repetitions), seconds(r.runtime),
       r.repetitions > 1 ? '±' + seconds(r.runtime_stddev) : '-', percent(r.efficiency),
       percent(r.pop.parallel_efficiency), percent(r.pop.load_balance),
       percent(r.pop.communication_efficiency), percent(r.pop.serialisation_efficiency),
       percent(r.pop.transfer_efficiency), percent(r.pop.computation_scalability)]
        .forEach(function (v) { tr.append('td').attr('class', 'num').text(v); });
    });
  }

  function efficiencyChart() {
    const svg = d3.select('#efficiency');
    const width = +svg.attr('width'), height = +svg.attr('height');
    const margin = {top: 14, right: 20, bottom: 34, left: 50};
    const ps = C.runs.map(function (r) { return r.processes; });
    const x = d3.scale.log().base(2).domain(d3.extent(ps)).range([margin.left, width - margin.right]);
    const top = Math.max(1.1, d3.max(C.runs, function (r) { return r.efficiency || 0; }) * 1.05);
    const y = d3.scale.linear().domain([0, top]).range([height - margin.bottom, margin.top]);
    axes(svg, x, y, width, height, margin, 'processes', d3.format('.0%'));
    svg.append('line').attr('class', 'ideal').attr('x1', x.range()[0]).attr('x2', x.range()[1])
      .attr('y1', y(1)).attr('y2', y(1));
    const line = d3.svg.line().x(function (r) { return x(r.processes); })
      .y(function (r) { return y(r.efficiency); });
    svg.append('path').attr('class', 'series').attr('stroke', colors(0)).attr('d', line(C.runs));
    svg.selectAll('circle.run').data(C.runs).enter().append('circle').attr('class', 'run')
      .attr('r', 4).attr('fill', colors(0))
      .attr('cx', function (r) { return x(r.processes); })
      .attr('cy', function (r) { return y(r.efficiency); })
      .append('title').text(function (r) { return r.label + ': ' + percent(r.efficiency); });
  }

  function categoriesChart() {
    const svg = d3.select('#categories');
    const width = +svg.attr('width'), height = +svg.attr('height');
    const margin = {top: 14, right: 20, bottom: 40, left: 60};
    const x = d3.scale.ordinal().domain(d3.range(C.runs.length))
      .rangeRoundBands([margin.left, width - margin.right], 0.3);
    const totals = C.runs.map(function (r, g) {
      return d3.sum(C.categories, function (k) { return k.seconds[g]; });
    });
    const y = d3.scale.linear().domain([0, d3.max(totals) || 1]).range([height - margin.bottom, margin.top]);
    svg.append('g').attr('class', 'axis').attr('transform', 'translate(' + margin.left + ',0)')
      .call(d3.svg.axis().scale(y).orient('left').ticks(6).tickFormat(seconds));
    C.runs.forEach(function (r, g) {
      let base = 0;
      C.categories.forEach(function (k, c) {
        const v = k.seconds[g];
        svg.append('rect').attr('class', 'category').attr('x', x(g)).attr('width', x.rangeBand())
          .attr('y', y(base + v)).attr('height', Math.max(0, y(base) - y(base + v)))
          .attr('fill', colors(c))
          .append('title').text(r.label + ', ' + k.display + ': ' + seconds(v));
        base += v;
      });
      svg.append('text').attr('x', x(g) + x.rangeBand() / 2).attr('y', height - margin.bottom + 14)
        .attr('text-anchor', 'middle').text(r.label);
    });
    const legend = d3.select('#categories-legend');
    C.categories.forEach(function (k, c) {
      legend.append('span').style('background', colors(c));
      legend.append('text').text(k.display);
    });
  }

  function curves() {
    // The paths that will dominate at the target size, as summary.txt lists them.
    const shown = C.callpaths.filter(function (p) { return p.dominant !== null && p.terms; });
    shown.forEach(function (p) {
      const div = d3.select('#curves').append('div').attr('class', 'curve');
      div.append('h3').text(p.callpath + ': ' + p.model);
      const svg = div.append('svg').attr('class', 'chart curve-chart').attr('width', 340).attr('height', 220);
      const width = 340, height = 220, margin = {top: 10, right: 14, bottom: 30, left: 56};
      const ps = C.runs.map(function (r) { return r.processes; });
      const last = Math.max(d3.max(ps), C.target_processes || 0);
      const x = d3.scale.log().base(2).domain([d3.min(ps), last]).range([margin.left, width - margin.right]);
      const samples = d3.range(0, 41).map(function (k) {
        const q = Math.exp(Math.log(d3.min(ps)) + k / 40 * (Math.log(last) - Math.log(d3.min(ps))));
        return [q, Math.max(0, model(p.terms, q))];
      });
      const top = Math.max(d3.max(p.times), d3.max(samples, function (s) { return s[1]; })) * 1.08 || 1;
      const y = d3.scale.linear().domain([0, top]).range([height - margin.bottom, margin.top]);
      axes(svg, x, y, width, height, margin, 'processes', seconds);
      svg.append('path').attr('class', 'model').attr('stroke', colors(1))
        .attr('d', d3.svg.line().x(function (s) { return x(s[0]); }).y(function (s) { return y(s[1]); })(samples));
      svg.selectAll('circle.point').data(p.times).enter().append('circle').attr('class', 'point')
        .attr('r', 3.5).attr('fill', colors(0))
        .attr('cx', function (t, g) { return x(C.runs[g].processes); })
        .attr('cy', function (t) { return y(t); })
        .append('title').text(function (t, g) { return C.runs[g].label + ': ' + seconds(t); });
    });
  }

  function revisions() {
    const shown = C.callpaths.filter(function (p) { return !p.setup; }).slice(0, 10);
    const svg = d3.select('#revisions');
    const width = +svg.attr('width'), height = +svg.attr('height');
    const margin = {top: 14, right: 20, bottom: 110, left: 60};
    const x0 = d3.scale.ordinal().domain(d3.range(shown.length))
      .rangeRoundBands([margin.left, width - margin.right], 0.2);
    const x1 = d3.scale.ordinal().domain(d3.range(C.runs.length)).rangeRoundBands([0, x0.rangeBand()], 0.05);
    const y = d3.scale.linear().domain([0, d3.max(shown, function (p) { return d3.max(p.times); }) || 1])
      .range([height - margin.bottom, margin.top]);
    svg.append('g').attr('class', 'axis').attr('transform', 'translate(' + margin.left + ',0)')
      .call(d3.svg.axis().scale(y).orient('left').ticks(6).tickFormat(seconds));
    shown.forEach(function (p, k) {
      p.times.forEach(function (t, g) {
        svg.append('rect').attr('class', 'revision').attr('x', x0(k) + x1(g)).attr('width', x1.rangeBand())
          .attr('y', y(t)).attr('height', Math.max(0, y(0) - y(t))).attr('fill', colors(g))
          .append('title').text(p.callpath + ', ' + C.runs[g].label + ': ' + seconds(t));
      });
      const name = p.callpath.split('/').pop();
      svg.append('text').attr('transform', 'translate(' + (x0(k) + x0.rangeBand() / 2) + ',' +
                                           (height - margin.bottom + 10) + ') rotate(35)')
        .text(name);
    });
    const legend = d3.select('#revisions-legend');
    C.runs.forEach(function (r, g) {
      legend.append('span').style('background', colors(g));
      legend.append('text').text(r.label);
    });
    const table = d3.select('#changes');
    table.append('tr').selectAll('th').data(['run', 'what', 'before', 'after', 'significant'])
      .enter().append('th').text(function (d) { return d; });
    C.changes.filter(function (c) { return c.significant; }).slice(0, 30).forEach(function (c) {
      const tr = table.append('tr');
      tr.append('td').text(C.runs[c.run].label);
      tr.append('td').text(c.what);
      const metric = c.what.indexOf('metric ') === 0 && c.what !== 'metric time';
      tr.append('td').attr('class', 'num').text(metric ? c.before.toPrecision(4) : seconds(c.before));
      tr.append('td').attr('class', 'num').text(metric ? c.after.toPrecision(4) : seconds(c.after));
      tr.append('td').text(c.confirmed ? 'yes (repetitions)' : 'above the threshold');
    });
  }

  try {
    d3.select('#kind').text(C.kind === 'scalability'
      ? C.scaling + ' scaling over ' + C.runs.length + ' process counts' +
        (C.predicted_runtime !== null ? '; predicted runtime at ' + C.target_processes + ' processes: ' +
                                          seconds(C.predicted_runtime) : '')
      : C.runs.length + ' revisions on ' + C.runs[0].processes + ' processes');
    C.warnings.forEach(function (w) { d3.select('#warnings').append('li').text(w); });
    runsTable();
    show('efficiency-section', C.kind === 'scalability');
    show('curves-section', C.kind === 'scalability' && C.runtime_model !== null);
    show('revisions-section', C.kind !== 'scalability');
    if (C.kind === 'scalability') efficiencyChart();
    categoriesChart();
    if (C.kind === 'scalability' && C.runtime_model !== null) curves();
    if (C.kind !== 'scalability') revisions();
    document.body.setAttribute('data-status', 'ok');
  } catch (e) {
    document.body.setAttribute('data-status', 'error: ' + e.message);
    throw e;
  }
})();
