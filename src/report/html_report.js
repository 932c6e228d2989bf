/*
 * html_report.js - draws edan's HTML report (src/report/html.c) from the JSON block #edan-data:
 * {"meta": {...identity...}, "report": {...schema edan.analysis/1...}}. Everything is built with
 * DOM calls and textContent (no markup from data), nothing is fetched. Tables keep their rows in
 * the data and draw one page at a time, so 10^5 rows stay fast; a click on a header sorts, and
 * the address's hash "#sort=TABLE.COLUMN[.asc|.desc]" sorts on load (TABLE and COLUMN as in the
 * table's id "t-TABLE" and the header's data-key).
 * This file is embedded by cmake/embed.cmake: it must never contain the closing script tag.
 */
(function () {
  'use strict';
  var DATA = JSON.parse(document.getElementById('edan-data').textContent);
  var R = DATA.report || {};
  var META = DATA.meta || {};
  var MAIN = document.getElementById('edan-report');
  var PAGE = 100;
  var SVGNS = 'http://www.w3.org/2000/svg';
  var tables = {};

  /* ---- small helpers ---- */
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    (kids || []).forEach(function (c) {
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return e;
  }
  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function isNum(v) { return typeof v === 'number' && isFinite(v); }
  function fmt(v) {
    if (v === null || v === undefined) return '\u2014';
    if (typeof v === 'boolean') return v ? 'yes' : 'no';
    if (typeof v !== 'number') return String(v);
    if (Number.isInteger(v)) return v.toLocaleString('en-US');
    var a = Math.abs(v);
    return a !== 0 && (a < 1e-3 || a >= 1e9) ? v.toExponential(3) : String(Number(v.toPrecision(4)));
  }
  /* axis numbers: 1.5K, 2M, 3G, and small values with few digits */
  function si(v) {
    var a = Math.abs(v), u = ['', 'K', 'M', 'G', 'T', 'P'], i = 0;
    while (a >= 1000 && i < u.length - 1) { a /= 1000; v /= 1000; i++; }
    return String(Number(v.toPrecision(3))) + u[i];
  }
  /* sizes on a log2 axis: 64, 1K, 4M (powers of 1024) */
  function siB(v) {
    var u = ['', 'K', 'M', 'G', 'T'], i = 0;
    while (v >= 1024 && i < u.length - 1) { v /= 1024; i++; }
    return String(Number(v.toPrecision(3))) + u[i];
  }
  function hex(v) { return isNum(v) ? '0x' + v.toString(16) : fmt(v); }
  function pct(v) { return isNum(v) ? (100 * v).toFixed(1) + ' %' : '\u2014'; }
  function section(title, id) {
    var s = el('section', { id: 's-' + id }, [el('h2', {}, [title])]);
    MAIN.appendChild(s);
    return s;
  }
  function kv(pairs) {
    var t = el('table', { class: 'kv' });
    pairs.forEach(function (p) {
      if (p[1] === undefined) return;
      t.appendChild(el('tr', {}, [el('th', {}, [p[0]]), el('td', {}, [typeof p[1] === 'string' ? p[1] : fmt(p[1])])]));
    });
    return t;
  }
  function where(r) {
    var s = r.file ? r.file + ':' + r.line : '(no source)';
    return r.function ? s + ' (' + r.function + ')' : s;
  }

  /* ---- sortable, paged tables ---- */
  /* cols: [{k: key, l: label, v: row -> value}]; rows stay in the data, a page is drawn at a time */
  function table(id, cols, rows) {
    var T = { id: id, cols: cols, rows: rows, order: rows.map(function (_, i) { return i; }),
              shown: null, page: 0, key: null, dir: 0 };
    var wrap = el('div', { class: 'tw' });
    var filter = el('input', { type: 'search', placeholder: 'filter rows', 'aria-label': 'filter rows' });
    var info = el('span', { class: 'info' });
    var prev = el('button', { type: 'button' }, ['\u2190 previous']);
    var next = el('button', { type: 'button' }, ['next \u2192']);
    var tab = el('table', { id: 't-' + id, class: 'data' });
    var head = el('tr');
    cols.forEach(function (c) {
      var th = el('th', { 'data-key': c.k, title: 'sort by ' + c.l }, [c.l]);
      th.addEventListener('click', function () { sortBy(T, c.k, 0); });
      head.appendChild(th);
    });
    tab.appendChild(el('thead', {}, [head]));
    T.body = el('tbody');
    tab.appendChild(T.body);
    T.head = head;
    T.info = info;
    prev.addEventListener('click', function () { if (T.page > 0) { T.page--; draw(T); } });
    next.addEventListener('click', function () { T.page++; draw(T); });
    filter.addEventListener('input', function () { applyFilter(T, filter.value); });
    if (rows.length > PAGE) wrap.appendChild(el('div', { class: 'bar' }, [filter, prev, next, info]));
    wrap.appendChild(el('div', { class: 'scroll' }, [tab]));
    tables[id] = T;
    T.filter = filter;
    T.shown = T.order;
    draw(T);
    return wrap;
  }
  function applyFilter(T, text) {
    text = text.toLowerCase();
    T.shown = !text ? T.order : T.order.filter(function (i) {
      var r = T.rows[i];
      return T.cols.some(function (c) { var v = c.v(r); return v !== null && String(v).toLowerCase().indexOf(text) >= 0; });
    });
    T.page = 0;
    draw(T);
  }
  /* dir: 1 ascending, -1 descending, 0 the other way than now (numbers start descending) */
  function sortBy(T, key, dir) {
    var c = T.cols.filter(function (x) { return x.k === key; })[0];
    if (!c) return;
    var vals = T.rows.map(c.v);
    var numeric = vals.some(isNum);
    if (!dir) dir = T.key === key ? -T.dir : numeric ? -1 : 1;
    T.order = T.rows.map(function (_, i) { return i; }).sort(function (a, b) {
      var x = vals[a], y = vals[b], xn = x === null || x === undefined, yn = y === null || y === undefined;
      if (xn || yn) return xn === yn ? a - b : xn ? 1 : -1;   /* no value: last, either way */
      var d = numeric ? (isNum(x) ? x : -Infinity) - (isNum(y) ? y : -Infinity) : String(x).localeCompare(String(y));
      return d ? d * dir : a - b;
    });
    T.key = key;
    T.dir = dir;
    applyFilter(T, T.filter.value);
    Array.prototype.forEach.call(T.head.children, function (th) {
      th.setAttribute('aria-sort', th.getAttribute('data-key') === key ? (dir > 0 ? 'ascending' : 'descending') : 'none');
    });
  }
  function draw(T) {
    var n = T.shown.length, pages = Math.max(1, Math.ceil(n / PAGE));
    if (T.page >= pages) T.page = pages - 1;
    var from = T.page * PAGE, to = Math.min(n, from + PAGE);
    var body = el('tbody');
    for (var i = from; i < to; i++) {
      var r = T.rows[T.shown[i]], tr = el('tr');
      T.cols.forEach(function (c) {
        var v = c.v(r);
        var td = el('td', isNum(v) ? { class: 'n', 'data-v': String(v) } : {}, [c.f ? c.f(v) : fmt(v)]);
        tr.appendChild(td);
      });
      body.appendChild(tr);
    }
    T.body.parentNode.replaceChild(body, T.body);
    T.body = body;
    T.info.textContent = n ? 'rows ' + (from + 1).toLocaleString('en-US') + '\u2013' + to.toLocaleString('en-US') +
      ' of ' + n.toLocaleString('en-US') + (n !== T.rows.length ? ' (filtered from ' + T.rows.length.toLocaleString('en-US') + ')' : '')
      : 'no rows';
  }
  /* columns of rows of any shape: scalars, objects of scalars one level down, first of number arrays */
  function autoCols(rows) {
    var cols = [], seen = {};
    /* code addresses in hex, as a disassembly shows them */
    function add(k, l, v) {
      if (!seen[k] && cols.length < 24) { seen[k] = 1; cols.push({ k: k, l: l, v: v, f: /^(pc|head|end)$/.test(k) ? hex : null }); }
    }
    rows.slice(0, 50).forEach(function (r) {
      Object.keys(r).forEach(function (k) {
        var x = r[k];
        if (x === null || typeof x !== 'object') add(k, k.replace(/_/g, ' '), function (o) { var y = o[k]; return y === undefined || (y !== null && typeof y === 'object') ? null : y; });
        else if (Array.isArray(x)) { if (x.length && isNum(x[0])) add(k, k.replace(/_/g, ' ') + ' [0]', function (o) { return o[k] && o[k].length ? o[k][0] : null; }); }
        else if (Object.keys(x).length <= 8)
          Object.keys(x).forEach(function (j) {
            if (x[j] === null || typeof x[j] !== 'object')
              add(k + '.' + j, k.replace(/_/g, ' ') + ' ' + j.replace(/_/g, ' '), function (o) { return o[k] && o[k][j] !== undefined ? o[k][j] : null; });
          });
      });
    });
    return cols;
  }
  function autoTable(id, rows) { return table(id, autoCols(rows), rows); }

  /* ---- charts (inline SVG) ---- */
  function axes(g, W, H, P, xt, yt, xlabel, ylabel) {
    g.appendChild(svg('line', { x1: P.l, y1: H - P.b, x2: W - P.r, y2: H - P.b, class: 'ax' }));
    g.appendChild(svg('line', { x1: P.l, y1: P.t, x2: P.l, y2: H - P.b, class: 'ax' }));
    xt.forEach(function (t) { g.appendChild(svg('text', { x: t[0], y: H - P.b + 16, 'text-anchor': 'middle' }, t[1])); });
    yt.forEach(function (t) {
      g.appendChild(svg('line', { x1: P.l, y1: t[0], x2: W - P.r, y2: t[0], class: 'grid' }));
      g.appendChild(svg('text', { x: P.l - 6, y: t[0] + 4, 'text-anchor': 'end' }, t[1]));
    });
    g.appendChild(svg('text', { x: (P.l + W - P.r) / 2, y: H - 6, 'text-anchor': 'middle', class: 'lab' }, xlabel));
    g.appendChild(svg('text', { x: 14, y: (P.t + H - P.b) / 2, 'text-anchor': 'middle', class: 'lab',
      transform: 'rotate(-90 14 ' + (P.t + H - P.b) / 2 + ')' }, ylabel));
  }
  function ticks(lo, hi, n) {
    var step = Math.pow(10, Math.floor(Math.log10((hi - lo) / n || 1)));
    [1, 2, 5, 10].some(function (m) { if ((hi - lo) / (step * m) <= n) { step *= m; return true; } return false; });
    var out = [];
    for (var v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(v);
    return out;
  }
  function legend(g, W, P, names) {
    names.forEach(function (n, i) {
      g.appendChild(svg('rect', { x: W - P.r + 12, y: P.t + i * 18, width: 12, height: 12, class: 'c' + i }));
      g.appendChild(svg('text', { x: W - P.r + 30, y: P.t + i * 18 + 11 }, n));
    });
  }
  function figure(title, node) {
    return el('figure', {}, [node, el('figcaption', {}, [title])]);
  }
  /* stacked bars: one bar per x, a segment per series */
  function stackChart(title, xs, series, xlabel, ylabel) {
    var W = 720, H = 300, P = { l: 70, r: 170, t: 14, b: 44 };
    var s = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': title, class: 'chart' });
    var tot = xs.map(function (_, i) { return series.reduce(function (a, se) { return a + (se.ys[i] || 0); }, 0); });
    var top = Math.max.apply(null, tot.concat([1])) * 1.05, bw = (W - P.l - P.r) / xs.length;
    function Y(v) { return H - P.b - (H - P.b - P.t) * v / top; }
    axes(s, W, H, P, xs.map(function (x, i) { return [P.l + bw * (i + 0.5), si(x)]; }),
      ticks(0, top, 5).map(function (v) { return [Y(v), si(v)]; }), xlabel, ylabel);
    xs.forEach(function (x, i) {
      var acc = 0;
      series.forEach(function (se, j) {
        var v = se.ys[i] || 0;
        var r = svg('rect', { x: P.l + bw * i + bw * 0.15, y: Y(acc + v), width: bw * 0.7, height: Math.max(0, Y(acc) - Y(acc + v)), class: 'c' + j });
        r.appendChild(svg('title', {}, se.name + ' at ' + fmt(x) + ': ' + fmt(v)));
        s.appendChild(r);
        acc += v;
      });
    });
    legend(s, W, P, series.map(function (se) { return se.name; }));
    return figure(title, s);
  }
  /* lines over a linear or logarithmic x (powers of two on a log axis) */
  function lineChart(title, series, xlabel, ylabel, logx) {
    var W = 720, H = 300, P = { l: 70, r: 170, t: 14, b: 44 };
    var s = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': title, class: 'chart' });
    var xs = [], ys = [];
    series.forEach(function (se) {
      se.xs.forEach(function (x, i) { if (isNum(x) && isNum(se.ys[i]) && (!logx || x > 0)) { xs.push(x); ys.push(se.ys[i]); } });
    });
    if (!xs.length) return el('p', {}, [title + ': no points']);
    var fx = logx ? Math.log2 : function (v) { return v; };
    var x0 = Math.min.apply(null, xs.map(fx)), x1 = Math.max.apply(null, xs.map(fx));
    var y0 = Math.min(0, Math.min.apply(null, ys)), y1 = Math.max.apply(null, ys) * 1.05 || 1;
    if (x1 === x0) x1 = x0 + 1;
    function X(v) { return P.l + (W - P.l - P.r) * (fx(v) - x0) / (x1 - x0); }
    function Y(v) { return H - P.b - (H - P.b - P.t) * (v - y0) / (y1 - y0); }
    var xt = logx ? ticks(x0, x1, 8).map(function (e) { return [X(Math.pow(2, e)), siB(Math.pow(2, e))]; })
                  : ticks(x0, x1, 8).map(function (v) { return [X(v), si(v)]; });
    axes(s, W, H, P, xt, ticks(y0, y1, 5).map(function (v) { return [Y(v), si(v)]; }), xlabel, ylabel);
    series.forEach(function (se, j) {
      var pts = [];
      se.xs.forEach(function (x, i) { if (isNum(x) && isNum(se.ys[i]) && (!logx || x > 0)) pts.push(X(x).toFixed(1) + ',' + Y(se.ys[i]).toFixed(1)); });
      s.appendChild(svg('polyline', { points: pts.join(' '), class: 'l' + j }));
    });
    legend(s, W, P, series.map(function (se) { return se.name; }));
    return figure(title, s);
  }

  /* ---- sections ---- */
  var src = R.source || {}, mach = (R.prediction && R.prediction.machine) || (R.projection && R.projection.machine);
  var prog = src.binary || src.path || (R.rank ? 'ranking of ' + R.rank.by_lambda.length + ' programs' : 'program');
  document.title = 'edan: ' + prog.split('/').pop() + (src.filter ? ' (' + src.filter + ')' : '');
  MAIN.appendChild(el('h1', {}, [document.title]));
  (function identity() {
    var s = section('Run', 'run'), m = R.model || {};
    s.appendChild(kv([
      ['program', src.binary || '\u2014'],
      ['arguments', META.arguments ? META.arguments.join(' ') : '(not recorded)'],
      ['source', (src.kind || '') + (src.path ? ' ' + src.path : '')],
      ['region (--filter)', src.filter || 'whole program'],
      ['program exit', src.program_exit ? (src.program_exit.signal !== null ? 'killed by signal ' + src.program_exit.signal
        : 'exit status ' + src.program_exit.status) + (src.program_exit.ignore_exit ? ' (--ignore-exit: edan exits 0)'
        : src.program_exit.signal !== null ? ' (edan exits 4)' : src.program_exit.status ? ' (edan exits 3)' : '') : undefined],
      ['machine', mach ? (mach.name || '') + (mach.file ? ' (' + mach.file + ')' : '') : 'none (eDAG metrics only)'],
      ['model', m.m ? 'm = ' + m.m.join(', ') + ', alpha0 ' + fmt(m.alpha0) + ', clock ' + fmt(m.clock_ghz) + ' GHz, ' +
        (m.false_deps ? 'true and false' : 'true (RAW)') + ' dependencies' : undefined],
      ['edan version', META.edan_version || '?'],
      ['generated', META.generated || '?'],
      /* under the plugin the command is QEMU's: the program and its arguments above say what ran */
      ['command', META.command && !META.arguments ? META.command.join(' ') : undefined]]));
  })();

  if (R.prediction) (function prediction() {
    var p = R.prediction, s = section('Predicted time against memory latency', 'prediction');
    var lat = p.mem_latency_ns || [], cyc = p.cycles || [], share = p.mem_stall_share || [];
    s.appendChild(kv([['slope (ns of run time per ns of latency)', p.slope_ns_per_ns], ['slowdown (highest / lowest latency)', p.slowdown]]));
    var stall = cyc.map(function (c, i) { return c * (share[i] || 0); });
    s.appendChild(stackChart('Predicted cycles of ' + prog.split('/').pop() + (src.filter ? ' (' + src.filter + ')' : '') + (mach ? ' on ' + mach.name : '') + ' by memory latency',
      lat, [{ name: 'not waiting on memory', ys: cyc.map(function (c, i) { return c - stall[i]; }) },
            { name: 'stalled on memory', ys: stall }], 'memory latency [ns]', 'cycles'));
    s.appendChild(table('latency', [
      { k: 'ns', l: 'latency [ns]', v: function (i) { return lat[i]; } },
      { k: 'cycles', l: 'cycles', v: function (i) { return cyc[i]; } },
      { k: 'seconds', l: 'seconds', v: function (i) { return p.seconds ? p.seconds[i] : null; } },
      { k: 'stall', l: 'memory stall share', v: function (i) { return share[i]; }, f: pct }], lat.map(function (_, i) { return i; })));
    if (p.counts) s.appendChild(kv(Object.keys(p.counts).filter(function (k) { return typeof p.counts[k] !== 'object'; })
      .map(function (k) { return [k.replace(/_/g, ' '), p.counts[k]]; })));
    var last = lat.length - 1;
    function timed(extra) {
      var c = extra.concat([
        { k: 'instructions', l: 'instructions', v: function (r) { return r.instructions; } },
        { k: 'cycles', l: 'cycles @' + fmt(lat[0]) + ' ns', v: function (r) { return r.cycles[0]; } },
        { k: 'stall', l: 'stall share @' + fmt(lat[0]) + ' ns', v: function (r) { return r.cycles[0] ? r.mem_stall_cycles[0] / r.cycles[0] : null; }, f: pct }]);
      if (last > 0) c.push(
        { k: 'cycles_hi', l: 'cycles @' + fmt(lat[last]) + ' ns', v: function (r) { return r.cycles[last]; } },
        { k: 'stall_hi', l: 'stall share @' + fmt(lat[last]) + ' ns', v: function (r) { return r.cycles[last] ? r.mem_stall_cycles[last] / r.cycles[last] : null; }, f: pct });
      c.push({ k: 'slope', l: 'slope ns/ns', v: function (r) { return r.slope_ns_per_ns; } });
      return c;
    }
    if (p.functions) {
      s.appendChild(el('h3', {}, ['Functions (most time first)']));
      s.appendChild(table('pred-functions', timed([{ k: 'name', l: 'function', v: function (r) { return r.name; } }]), p.functions));
    }
    if (p.lines) {
      s.appendChild(el('h3', {}, ['Source lines (largest slope first)']));
      s.appendChild(table('pred-lines', timed([{ k: 'line', l: 'source line', v: where }]), p.lines));
    }
  })();

  if (R.configurations) (function edag() {
    var s = section('eDAG metrics', 'edag');
    s.appendChild(kv([['footprint', si(R.footprint_bytes || 0) + 'B']]));
    var rows = R.configurations;
    s.appendChild(table('configurations', [
      { k: 'cache', l: 'cache', v: function (c) { return c.cache; } },
      { k: 'alpha', l: 'alpha', v: function (c) { return c.alpha; } },
      { k: 'vertices', l: 'vertices', v: function (c) { return c.vertices; } },
      { k: 'T1', l: 'work T1', v: function (c) { return c.T1; } },
      { k: 'Tinf', l: 'span T\u221e', v: function (c) { return c.Tinf; } },
      { k: 'parallelism', l: 'T1/T\u221e', v: function (c) { return c.parallelism; } },
      { k: 'W', l: 'W', v: function (c) { return c.W; } },
      { k: 'D', l: 'D', v: function (c) { return c.D; } },
      { k: 'C', l: 'C', v: function (c) { return c.C; } },
      { k: 'lambda', l: '\u03bb (m=' + (R.model.m || [])[0] + ')', v: function (c) { return c.per_m[0] ? c.per_m[0].lambda : null; } },
      { k: 'Lambda', l: '\u039b', v: function (c) { return c.per_m[0] ? c.per_m[0].Lambda : null; } },
      { k: 'Tup', l: 'T upper', v: function (c) { return c.per_m[0] ? c.per_m[0].runtime.upper : null; } },
      { k: 'gbs', l: 'B [GB/s]', v: function (c) { return c.bandwidth_gbs; } }], rows));
    var mv = rows.filter(function (c) { return c.series && c.series.length; }).map(function (c, i) {
      var se = c.series[0];
      return { name: '[' + (i + 1) + '] ' + c.cache, xs: se.U.map(function (_, j) { return j * se.tau; }), ys: se.U };
    });
    if (mv.length) s.appendChild(lineChart('Data movement over time (U, bytes per phase)', mv.slice(0, 6), 'time [cycles]', 'bytes', false));
  })();

  /* a path's lines, each with what carries its links on (via: a register, or the bytes the next line read) */
  function pathSection(key, title, what) {
    var cp = R[key];
    if (!cp) return;
    var s = section(title, key);
    s.appendChild(kv([[what, cp.Tinf !== undefined ? cp.Tinf : cp.D], ['instructions', cp.instructions], ['memory accesses', cp.memory_accesses]]));
    s.appendChild(table(key, [
      { k: 'line', l: 'source line', v: where },
      { k: 'instructions', l: 'instructions', v: function (r) { return r.instructions; } },
      { k: 'cycles', l: 'cycles', v: function (r) { return r.cycles; } },
      { k: 'mem', l: 'memory accesses', v: function (r) { return r.memory_accesses; } },
      { k: 'via', l: 'via (register or bytes)', v: function (r) { return r.via === undefined ? null : r.via; } }], cp.lines || []));
  }
  pathSection('critical_path', 'Critical path (span) as source lines', 'span T\u221e');
  pathSection('memory_chain', 'Memory chain (D dependent accesses) as source lines', 'memory depth D');
  pathSection('data_critical_path', 'Data critical path (address bookkeeping left out) as source lines', 'the data eDAG\u2019s T\u221e');
  pathSection('data_memory_chain', 'Data memory chain (address bookkeeping left out) as source lines', 'the data eDAG\u2019s D');

  /* the hottest lines' files (their text in META.sources), each line with its measures in the margin */
  if ((META.sources || []).length) (function hotSource() {
    var M = {}, P = R.prediction, A = R.annotate;
    function at(r) { var k = r.file + ':' + r.line; return M[k] || (M[k] = {}); }
    if (P && P.lines) P.lines.forEach(function (r) {
      var m = at(r);
      m.cycles = (m.cycles || 0) + (r.cycles ? r.cycles[0] : 0);
      m.stall = (m.stall || 0) + (r.mem_stall_cycles ? r.mem_stall_cycles[0] : 0);
    });
    if (A && A.lines) A.lines.forEach(function (r) {
      var m = at(r);
      m.ir = (m.ir || 0) + r.instructions;
      m.mem = (m.mem || 0) + r.mem;
      if (A.critical_path) m.span = (m.span || 0) + r.span_cycles;
    });
    ['critical_path', 'data_critical_path'].forEach(function (key) {
      ((R[key] || {}).lines || []).forEach(function (r) {
        var m = at(r);
        m[key] = (m[key] || 0) + r.cycles;
        m[key + '_via'] = m[key + '_via'] ? m[key + '_via'] + ' ' + r.via : r.via;
      });
    });
    /* the heat of a line: model cycles with a machine, else span cycles, else instructions */
    var heatKey = P && P.lines ? 'cycles' : A && A.critical_path ? 'span' : A ? 'ir' : 'critical_path';
    var cols = [];
    if (P && P.lines) cols.push(['cycles', 'cycles @' + fmt((P.mem_latency_ns || [])[0]) + ' ns', function (m) { return m.cycles; }],
      ['stall', 'memory stall', function (m) { return m.cycles ? m.stall / m.cycles : null; }, pct]);
    if (A) cols.push(['ir', 'instructions', function (m) { return m.ir; }], ['mem', 'memory accesses', function (m) { return m.mem; }]);
    if (A && A.critical_path && !(P && P.lines)) cols.push(['span', 'span cycles', function (m) { return m.span; }]);
    if (R.critical_path) cols.push(['path', 'critical path cycles', function (m) { return m.critical_path; }],
      ['via', 'via', function (m) { return m.critical_path_via; }]);
    if (R.data_critical_path) cols.push(['dpath', 'data path cycles', function (m) { return m.data_critical_path; }],
      ['dvia', 'data via', function (m) { return m.data_critical_path_via; }]);
    var top = 0;
    Object.keys(M).forEach(function (k) { top = Math.max(top, M[k][heatKey] || 0); });
    var files = META.sources.map(function (f) {
      var sum = 0;
      f.lines.forEach(function (l) { var m = M[f.file + ':' + l[0]]; sum += m && m[heatKey] || 0; });
      return { f: f, sum: sum };
    }).sort(function (a, b) { return b.sum - a.sum; });
    var s = section('Annotated hot source', 'source');
    s.appendChild(el('p', {}, ['The files of the hottest lines, each line with ' +
      (heatKey === 'cycles' ? 'the timing model\u2019s cycles and memory stall share' : 'its eDAG measures') +
      ' in the margin' + (R.critical_path ? ' and, on the critical path, what carries its value on (via)' : '') + '.']));
    files.forEach(function (x, fi) {
      var f = x.f;
      s.appendChild(el('h3', {}, [f.file]));
      var head = el('tr', {}, [el('th', { 'data-key': 'line' }, ['line'])]);
      cols.forEach(function (c) { head.appendChild(el('th', { 'data-key': c[0] }, [c[1]])); });
      head.appendChild(el('th', { 'data-key': 'text', class: 'code' }, ['source']));
      var body = el('tbody'), prev = 0;
      f.lines.forEach(function (l) {
        if (prev && l[0] !== prev + 1)
          body.appendChild(el('tr', { class: 'gap' }, [el('td', { colspan: String(cols.length + 2) }, ['\u22ee'])]));
        prev = l[0];
        var m = M[f.file + ':' + l[0]] || {}, h = top ? (m[heatKey] || 0) / top : 0;
        var tr = el('tr', h > 0 ? { class: 'heat' + Math.min(4, 1 + Math.floor(h * 4)) } : {}, [el('td', { class: 'n' }, [String(l[0])])]);
        cols.forEach(function (c) {
          var v = c[2](m);
          tr.appendChild(el('td', isNum(v) ? { class: 'n', 'data-v': String(v) } : {}, [v === undefined || v === null ? '' : c[3] ? c[3](v) : fmt(v)]));
        });
        tr.appendChild(el('td', { class: 'code' }, [l[1]]));
        body.appendChild(tr);
      });
      s.appendChild(el('div', { class: 'scroll' }, [el('table', { id: 't-source-' + fi, class: 'data src' }, [el('thead', {}, [head]), body])]));
    });
  })();

  if (R.functions) {
    section('Functions (eDAG, exclusive and inclusive)', 'functions').appendChild(autoTable('functions', R.functions));
  }
  if (R.annotate) (function annotate() {
    var a = R.annotate, s = section('Source lines (annotate)', 'annotate'), t = a.totals || {};
    function share(k) { return function (r) { return t[k] ? r[k] / t[k] : null; }; }
    s.appendChild(table('annotate', [
      { k: 'line', l: 'source line', v: where },
      { k: 'instructions', l: 'instructions', v: function (r) { return r.instructions; } },
      { k: 'mem', l: 'memory accesses', v: function (r) { return r.mem; } },
      { k: 'mem_share', l: 'share of W', v: share('mem'), f: pct },
      { k: 'span', l: 'span cycles', v: function (r) { return r.span_cycles; } },
      { k: 'span_share', l: 'share of T\u221e', v: share('span_cycles'), f: pct },
      { k: 'chain', l: 'chain accesses', v: function (r) { return r.chain_accesses; } }], a.lines || []));
  })();

  /* the locality and projection tools: their scalars, their curves, every list of rows as a table */
  function generic(key, title, charts) {
    var o = R[key];
    if (!o || typeof o !== 'object') return;
    var s = section(title, key);
    s.appendChild(kv(Object.keys(o).filter(function (k) { return o[k] === null || typeof o[k] !== 'object'; })
      .map(function (k) { return [k.replace(/_/g, ' '), o[k]]; })));
    (charts || []).forEach(function (c) { var n = c(o); if (n) s.appendChild(n); });
    Object.keys(o).forEach(function (k) {
      var v = o[k];
      if (Array.isArray(v) && v.length && v[0] && typeof v[0] === 'object') {
        s.appendChild(el('h3', {}, [k.replace(/_/g, ' ')]));
        s.appendChild(autoTable(key + '-' + k, v));
      } else if (v && typeof v === 'object' && !Array.isArray(v)) {
        var sub = Object.keys(v).filter(function (j) { return v[j] === null || typeof v[j] !== 'object'; });
        if (sub.length) {
          s.appendChild(el('h3', {}, [k.replace(/_/g, ' ')]));
          s.appendChild(kv(sub.map(function (j) { return [j.replace(/_/g, ' '), v[j]]; })));
        }
      }
    });
  }
  generic('projection', 'Projection (ExaSAT)', [function (o) {
    var t = o.traffic_curve;
    return t && t.cache_bytes ? lineChart('DRAM traffic against cache size (fully associative LRU)', [
      { name: 'read bytes', xs: t.cache_bytes, ys: t.read_bytes }, { name: 'write bytes', xs: t.cache_bytes, ys: t.write_bytes }],
      'cache size [bytes]', 'bytes', true) : null;
  }]);
  generic('footprint', 'Footprint');
  generic('reuse', 'Reuse distance', [function (o) {
    var m = o.miss_ratio_curve;
    return m && m.bytes ? lineChart('Miss ratio against cache size (fully associative LRU)', [{ name: 'miss ratio', xs: m.bytes, ys: m.miss_ratio }],
      'cache size [bytes]', 'miss ratio', true) : null;
  }]);
  generic('load_classes', 'Load classes');
  generic('zoom', 'Location zoom');
  generic('sampled', 'Sampled estimates (MemGaze)');
  generic('rank', 'Ranking by memory latency sensitivity');

  /* #sort=TABLE.COLUMN[.asc|.desc] sorts as asked; #click=TABLE.COLUMN clicks the header (as a reader would) */
  var h = /[#&](sort|click)=([^&]+)/.exec(location.hash);
  if (h) {
    var a = decodeURIComponent(h[2]).split('.'), last = a[a.length - 1];
    var dir = a.length > 2 && last === 'asc' ? 1 : a.length > 2 && last === 'desc' ? -1 : 0;
    var t = tables[a[0]], key = (dir ? a.slice(1, -1) : a.slice(1)).join('.');
    if (t && h[1] === 'sort') sortBy(t, key, dir);
    if (t && h[1] === 'click')
      Array.prototype.forEach.call(t.head.children, function (th) { if (th.getAttribute('data-key') === key) th.click(); });
  }
  /* milliseconds from navigation to a drawn page (the tests' load-time budget reads it) */
  document.body.setAttribute('data-ready', String(Math.round(performance.now())));
})();
