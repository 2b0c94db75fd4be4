// Draws report.html from the JSON in #report-data: what the crawl found about the site first (a recrawl's changes
// since the earlier crawl, counted and listed; a summary of problems, then a sortable, paged table for each section
// of audit.json; the rules the crawl learned), then the crawl's charts with Chart.js. Every text
// of the crawl is set as text (textContent); a link's href only ever holds an http(s) URL. When done, <html> gets
// data-charts (charts drawn), data-charts-painted (of those, canvases with pixels painted), data-charts-expected
// (charts the data called for), data-tables (tables drawn) and data-tables-expected (lists in audit.json): a headless
// browser checks them.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var expected = 0;
  var canvases = [];
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.plugins.legend.display = false;

  function number(n) {
    return n === undefined || n === null ? '-' : Number(n).toLocaleString('en');
  }
  function fact(label, value) {
    var div = document.createElement('div');
    div.textContent = label + ': ';
    var b = document.createElement('b');
    b.textContent = value;
    div.appendChild(b);
    document.getElementById('facts').appendChild(div);
  }
  // A card with a title; a canvas when there is something to draw, else a line saying there is nothing.
  function card(title, empty) {
    var div = document.createElement('div');
    div.className = 'card';
    var h = document.createElement('h2');
    h.textContent = title;
    div.appendChild(h);
    document.getElementById('charts').appendChild(div);
    if (empty) {
      var p = document.createElement('div');
      p.className = 'none';
      p.textContent = empty;
      div.appendChild(p);
      return null;
    }
    expected++;
    var box = document.createElement('div');
    box.className = 'chart';
    var canvas = document.createElement('canvas');
    box.appendChild(canvas);
    div.appendChild(box);
    return canvas;
  }
  function draw(canvas, config) {
    if (canvas) {
      new Chart(canvas, config);
      canvases.push(canvas);
    }
  }
  function bars(title, labels, values, color, horizontal, empty) {
    draw(card(title, labels.length ? null : empty), {
      type: 'bar',
      data: { labels: labels, datasets: [{ data: values, backgroundColor: color }] },
      options: { indexAxis: horizontal ? 'y' : 'x',
        scales: horizontal ? { x: { beginAtZero: true, ticks: { precision: 0 } }, y: { ticks: { autoSkip: false } } }
          : { x: { ticks: { autoSkip: true } }, y: { beginAtZero: true, ticks: { precision: 0 } } } }
    });
  }
  // successes green, redirects blue, URLs not fetched by rule grey, failures orange (the server's) and red (ours or
  // the network's)
  function outcomeColor(outcome) {
    return { fetched: '#2ca02c', sitemap: '#2ca02c', checked: '#2ca02c', 'not-modified': '#2ca02c',
      unchanged: '#2ca02c', redirect: '#1f77b4', 'http-error': '#ff7f0e', 'not-html': '#bcbd22',
      truncated: '#ff7f0e', error: '#d62728', unreachable: '#d62728' }[outcome] || '#7f7f7f';
  }
  function cut(text, n) {
    return text.length > n ? text.substring(0, n - 1) + '…' : text;
  }

  // progress lines: x is seconds since the crawl started: the line's "at" less the summary's startedAt, or else the
  // line's elapsed (seconds since its run started; a resumed crawl's runs follow each other). The first interval
  // starts at 0, where nothing was fetched yet.
  var s = data.summary;
  var started = s && s.startedAt ? Date.parse(s.startedAt) : NaN;
  var offset = 0, last = -1, points = [];
  data.progress.forEach(function (p) {
    if (p.elapsed < last) {
      offset += last;
    }
    last = p.elapsed;
    var t = !isNaN(started) && p.at ? (Date.parse(p.at) - started) / 1000 : offset + p.elapsed;
    points.push({ t: t, p: p });
  });
  var rates = points.length ? [{ x: 0, y: 0 }] : [];
  var averages = points.length ? [{ x: 0, y: 0 }] : [];
  points.forEach(function (q) {
    rates.push({ x: q.t, y: q.p.rate });
    averages.push({ x: q.t, y: q.p.avg });
  });
  var SINCE_START = 'seconds since the crawl started';

  // the header: when, from where
  var sub = [];
  if (s && s.startedAt) {
    sub.push('started ' + s.startedAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z'));
  }
  if (data.seeds && data.seeds.count > 0) {
    sub.push((data.seeds.count === 1 ? 'seed ' : 'seeds ') + data.seeds.first.join(', ')
      + (data.seeds.count > data.seeds.first.length ? ' (+' + number(data.seeds.count - data.seeds.first.length)
        + ' more)' : ''));
  }
  if (s) {
    sub.push('ended: ' + s.endReason);
  }
  document.getElementById('sub').textContent = sub.join(' · ');

  fact('records', number(data.records));
  if (data.unreadableLines > 0) {
    fact('lines of pages.jsonl left out (not records)', number(data.unreadableLines));
  }
  if (s) {
    if (s.pages !== undefined) {
      fact('pages', number(s.pages));
      fact('HTTP errors', number(s.httpErrors));
      fact('failed (no answer)', number(s.failed));
      fact('responses', number(s.responses));
    } else {
      fact('responses', number(s.fetched)); // summary.json of a build before "responses"
    }
    fact('pages/s', number(s.pagesPerSecond));
    fact('duration', (s.durationMs / 1000).toFixed(1) + ' s');
    fact('ended', s.endReason);
    fact('MB', (s.bytes / 1048576).toFixed(1));
    fact('failed attempts', number(s.errors));
    if (s.learned && s.learned.rules > 0) {
      fact('rules learned', number(s.learned.rules) + (s.learned.undone > 0 ? ' (' + number(s.learned.undone)
        + ' undone)' : '') + ', ' + number(s.learned.refused) + ' URLs refused, ' + number(s.learned.rewritten)
        + ' rewritten');
    }
    if (s.linkRejections && s.linkRejections['over-host-budget'] > 0) {
      fact('over host budget (limits.max-pages-per-host)', number(s.linkRejections['over-host-budget']));
    }
    fact('seen~', number(s.sieve.estimatedSeen) + ' of ' + number(s.sieve.expectedUrls) + ' expected');
    fact('fpr', (s.sieve.falsePositiveRate * 100).toPrecision(3) + ' %');
  } else {
    fact('summary', 'none yet (crawl running, stopped hard, or killed)');
  }

  draw(card('Pages per second', points.length ? null : 'no progress lines (progress.jsonl)'), {
    type: 'line',
    data: { datasets: [
      { label: 'rate (last interval)', data: rates, borderColor: '#1f77b4', backgroundColor: '#1f77b4',
        pointRadius: 0 },
      { label: 'average', data: averages, borderColor: '#ff7f0e', backgroundColor: '#ff7f0e', pointRadius: 0,
        borderDash: [4, 3] }] },
    options: { plugins: { legend: { display: true } },
      scales: { x: { type: 'linear', min: 0, title: { display: true, text: SINCE_START } },
        y: { beginAtZero: true, title: { display: true, text: 'pages/s' } } } }
  });

  var outcomes = Object.keys(data.outcomes).sort(function (a, b) { return data.outcomes[b] - data.outcomes[a]; });
  bars('Outcomes', outcomes, outcomes.map(function (k) { return data.outcomes[k]; }),
    outcomes.map(outcomeColor), true, 'no records');

  var statuses = Object.keys(data.statuses);
  bars('HTTP statuses', statuses, statuses.map(function (k) { return data.statuses[k]; }),
    statuses.map(function (k) {
      return k < 300 ? '#2ca02c' : k < 400 ? '#1f77b4' : k < 500 ? '#ff7f0e' : '#d62728';
    }), false, 'no responses');

  bars('Depth (links from a seed)', data.depths.map(function (d) { return String(d[0]); }),
    data.depths.map(function (d) { return d[1]; }), '#9467bd', false, 'no records');

  bars('Top hosts (records)', data.hosts.map(function (h) { return cut(h[0], 40); }),
    data.hosts.map(function (h) { return h[1]; }), '#17becf', true, 'no records');

  bars('Top errors', data.errors.map(function (e) { return cut(e[0], 50); }),
    data.errors.map(function (e) { return e[1]; }), '#d62728', true, 'no errors');

  var rejections = s && s.linkRejections ? s.linkRejections : {};
  var reasons = Object.keys(rejections).sort(function (a, b) { return rejections[b] - rejections[a]; });
  bars('Links not followed (by reason)', reasons, reasons.map(function (k) { return rejections[k]; }),
    reasons.map(function (k) { return k === 'over-host-budget' ? '#d62728' : '#8c564b'; }), true,
    s ? 'every link found was followed' : 'no summary yet');

  // scaled to what the Sieve saw; sieve.expected-urls is drawn only when seen~ comes within half of it (a site's crawl
  // against a filter sized for 10^8 was a flat line at 0), and given in the title
  var expectedUrls = s ? s.sieve.expectedUrls : null;
  var mostSeen = points.reduce(function (m, q) { return Math.max(m, q.p.seen || 0); }, 0);
  var sieve = [
    { label: 'seen~', data: points.map(function (q) { return { x: q.t, y: q.p.seen }; }), yAxisID: 'y',
      borderColor: '#1f77b4', backgroundColor: '#1f77b4', pointRadius: 0 },
    { label: 'false-positive rate %', data: points.map(function (q) { return { x: q.t, y: q.p.fpr * 100 }; }),
      yAxisID: 'fpr', borderColor: '#d62728', backgroundColor: '#d62728', pointRadius: 0 }];
  if (expectedUrls && points.length && mostSeen * 2 >= expectedUrls) {
    sieve.push({ label: 'sieve.expected-urls', yAxisID: 'y', borderColor: '#7f7f7f', backgroundColor: '#7f7f7f',
      borderDash: [6, 4], pointRadius: 0,
      data: [{ x: points[0].t, y: expectedUrls }, { x: points[points.length - 1].t, y: expectedUrls }] });
  }
  draw(card('Sieve: seen~ and false-positive rate' + (expectedUrls ? ' (expected URLs: ' + number(expectedUrls) + ')'
    : ''), points.length ? null : 'no progress lines (progress.jsonl)'), {
    type: 'line',
    data: { datasets: sieve },
    options: { plugins: { legend: { display: true } },
      scales: { x: { type: 'linear', min: 0, title: { display: true, text: SINCE_START } },
        y: { beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: 'URLs' } },
        fpr: { position: 'right', beginAtZero: true, grid: { drawOnChartArea: false },
          ticks: { callback: function (v) { return Number(v).toPrecision(2); } },
          title: { display: true, text: 'fpr %' } } } }
  });

  // ---- what the crawl found: audit.json ----
  var audit = data.audit;
  var totals = data.auditTotals || {};
  var SECTIONS = {
    brokenLinks: 'Broken links, with the pages linking to them',
    redirects: 'Redirects',
    duplicates: 'Duplicate pages',
    titles: 'Titles',
    orphans: 'Orphans: in a sitemap, linked from no page',
    slowest: 'Slowest pages'
  };
  var PROBLEMS = [['brokenLinks', 'broken links'], ['redirects', 'redirect chains'],
    ['duplicates', 'duplicate groups'], ['titles', 'title problems'], ['orphans', 'orphans']];
  var tablesExpected = 0, tablesDrawn = 0;

  function total(name) {
    var t = totals[name];
    if (t === undefined || t === null) {
      return null;
    }
    if (typeof t === 'number') {
      return t;
    }
    return Object.keys(t).reduce(function (sum, k) { return sum + t[k]; }, 0);
  }
  function problem(label, count, bad, parent) {
    var div = document.createElement('div');
    div.className = 'problem' + (bad ? ' bad' : '');
    var b = document.createElement('b');
    b.textContent = count === null ? '-' : number(count);
    div.appendChild(b);
    div.appendChild(document.createTextNode(label));
    (parent || document.getElementById('problems')).appendChild(div);
  }
  function problems() {
    if (!audit) {
      var none = document.createElement('div');
      none.className = 'none';
      none.textContent = 'No audit.json in this folder (a crawl of an older build, or one still running): '
        + 'run crawler report on the folder to write it.';
      document.getElementById('problems').appendChild(none);
    } else {
      PROBLEMS.forEach(function (p) {
        if (p[0] in audit) {
          var n = total(p[0]);
          problem(p[1], n, n > 0);
        }
      });
      var notMeasured = audit.stats ? audit.stats.nearDuplicatesNotMeasured : 0;
      if (notMeasured > 0) { // pages without a simhash: an older build's records, not HTML, or no text
        problem('pages not measured for near duplicates (no simhash)', notMeasured, false);
      }
    }
    if (s && s.outcomes) {
      var httpErrors = s.httpErrors !== undefined ? s.httpErrors : s.outcomes['http-error'] || 0;
      var failed = s.failed !== undefined ? s.failed : (s.outcomes.error || 0) + (s.outcomes.unreachable || 0);
      problem('HTTP errors (4xx, 5xx)', httpErrors, httpErrors > 0);
      problem('failed (network, unreachable)', failed, failed > 0);
    }
  }

  function isUrl(v) {
    return typeof v === 'string' && /^https?:\/\//i.test(v);
  }
  function link(url) {
    var a = document.createElement('a');
    a.href = url; // http(s) only: isUrl
    a.rel = 'noreferrer';
    a.textContent = url;
    return a;
  }
  // a value of a row as nodes: URLs as links, lists as their first items and how many more
  function cell(td, value, more) {
    if (value === null || value === undefined) {
      return;
    }
    if (Array.isArray(value)) {
      var SHOWN = 5;
      value.slice(0, SHOWN).forEach(function (item) {
        var line = document.createElement('div');
        if (item !== null && typeof item === 'object') {
          Object.keys(item).forEach(function (k, j) {
            if (j > 0) {
              line.appendChild(document.createTextNode(' · '));
            }
            var v = item[k];
            if (isUrl(v)) {
              line.appendChild(link(v));
            } else if (v !== null && v !== undefined && v !== '') {
              line.appendChild(document.createTextNode(k === 'text' ? '“' + v + '”' : String(v)));
            }
          });
        } else if (isUrl(item)) {
          line.appendChild(link(item));
        } else {
          line.textContent = String(item);
        }
        td.appendChild(line);
      });
      var all = more || value.length;
      if (all > SHOWN) {
        var rest = document.createElement('div');
        rest.className = 'none';
        rest.style.padding = '0';
        rest.textContent = '… and ' + number(all - SHOWN) + ' more' + (all > value.length
          ? ' (audit.json has them all)' : '');
        td.appendChild(rest);
      }
    } else if (typeof value === 'object') {
      td.textContent = JSON.stringify(value);
    } else if (isUrl(value)) {
      td.appendChild(link(value));
    } else if (typeof value === 'number') {
      td.className = 'n';
      td.textContent = number(value);
    } else if (typeof value === 'boolean') {
      td.textContent = value ? 'yes' : '';
    } else {
      td.textContent = String(value);
    }
  }
  function sortKey(row, column) {
    var v = row[column];
    if (Array.isArray(v)) {
      return row[column + 'Total'] || v.length;
    }
    return v === null || v === undefined ? '' : v;
  }
  // a sortable table of rows (objects, or plain values), 25 rows a page, 5 items of a row's list shown
  function table(parent, rows, whole, source) {
    var PAGE = 25;
    tablesExpected++;
    if (!rows.length) {
      var none = document.createElement('div');
      none.className = 'none';
      none.textContent = 'none found';
      parent.appendChild(none);
      tablesDrawn++;
      return;
    }
    var objects = rows[0] !== null && typeof rows[0] === 'object' && !Array.isArray(rows[0]);
    var columns = [];
    if (objects) {
      rows.slice(0, 50).forEach(function (r) {
        Object.keys(r).forEach(function (k) {
          if (columns.indexOf(k) < 0 && !(/Total$/.test(k) && Array.isArray(r[k.slice(0, -5)]))) {
            columns.push(k);
          }
        });
      });
    } else {
      columns = ['value'];
      rows = rows.map(function (v) { return { value: v }; });
    }
    var t = document.createElement('table');
    var head = document.createElement('tr');
    var body = document.createElement('tbody');
    var pager = document.createElement('div');
    pager.className = 'pager';
    var page = 0, sortBy = null, descending = false;
    function render() {
      body.textContent = '';
      rows.slice(page * PAGE, (page + 1) * PAGE).forEach(function (r) {
        var tr = document.createElement('tr');
        columns.forEach(function (c) {
          var td = document.createElement('td');
          cell(td, r[c], r[c + 'Total']);
          tr.appendChild(td);
        });
        body.appendChild(tr);
      });
      pager.textContent = '';
      var pages = Math.ceil(rows.length / PAGE);
      if (pages > 1) {
        var back = document.createElement('button');
        back.textContent = '‹ previous';
        back.disabled = page === 0;
        back.onclick = function () { page--; render(); };
        var next = document.createElement('button');
        next.textContent = 'next ›';
        next.disabled = page >= pages - 1;
        next.onclick = function () { page++; render(); };
        pager.appendChild(back);
        pager.appendChild(next);
      }
      pager.appendChild(document.createTextNode('rows ' + number(page * PAGE + 1) + '–'
        + number(Math.min(rows.length, (page + 1) * PAGE)) + ' of ' + number(rows.length)
        + (whole > rows.length ? ' shown here, of ' + number(whole) + ' in ' + (source || 'audit.json') : '')));
    }
    columns.forEach(function (c) {
      var th = document.createElement('th');
      th.textContent = c;
      th.title = 'sort by ' + c;
      th.onclick = function () {
        descending = sortBy === c ? !descending : false;
        sortBy = c;
        rows.sort(function (a, b) {
          var x = sortKey(a, c), y = sortKey(b, c);
          var order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
          return descending ? -order : order;
        });
        page = 0;
        render();
      };
      head.appendChild(th);
    });
    var thead = document.createElement('thead');
    thead.appendChild(head);
    t.appendChild(thead);
    t.appendChild(body);
    parent.appendChild(t);
    parent.appendChild(pager);
    render();
    tablesDrawn++;
  }
  function tables() {
    if (!audit) {
      return;
    }
    Object.keys(audit).forEach(function (name) {
      var value = audit[name];
      if (name === 'stats' || value === null || typeof value !== 'object') {
        return;
      }
      var div = document.createElement('div');
      div.className = 'card';
      var h = document.createElement('h2');
      h.textContent = SECTIONS[name] || name;
      div.appendChild(h);
      document.getElementById('tables').appendChild(div);
      if (Array.isArray(value)) {
        table(div, value, totals[name]);
      } else {
        Object.keys(value).forEach(function (list) {
          var h3 = document.createElement('h3');
          h3.textContent = list;
          div.appendChild(h3);
          if (Array.isArray(value[list])) {
            table(div, value[list], (totals[name] || {})[list]);
          } else {
            var p = document.createElement('div');
            p.textContent = JSON.stringify(value[list]);
            div.appendChild(p);
          }
        });
      }
    });
  }

  // ---- a recrawl: what changed since the earlier crawl (changes.jsonl), first ----
  // [key, label, a problem when not 0]: gone, unreachable and unlinked pages are; new, changed and moved ones news
  var CHANGE_COUNTS = [['new', 'new', false], ['changed', 'changed', false], ['gone', 'gone', true],
    ['moved', 'moved', false], ['unreachable', 'unreachable', true], ['unchanged', 'unchanged', false],
    ['notModified', 'not modified (304)', false], ['notVisited', 'not visited', false]];
  var CHANGE_LISTS = [['new', 'New'], ['changed', 'Changed'], ['gone', 'Gone: 404 or 410 now'],
    ['moved', 'Moved: a redirect now'], ['unreachable', 'Unreachable now (no answer, or refused)'],
    ['notVisited', 'Not visited: the recrawl ended before it reached them'],
    ['unlinked', 'Unlinked: no page links to them any more']];
  function changes() {
    var c = data.changes;
    if (!c) {
      return;
    }
    var counted = s && s.changes ? s.changes : null;
    var since = counted && typeof counted.since === 'string'
      ? counted.since.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : null;
    var measured = (counted && typeof counted.unlinked === 'number') || c.counts.unlinked > 0;
    var div = document.createElement('div');
    div.className = 'card';
    var h = document.createElement('h2');
    h.textContent = 'Changes since ' + (since || 'the earlier crawl');
    div.appendChild(h);
    var boxes = document.createElement('div');
    boxes.className = 'problems';
    div.appendChild(boxes);
    CHANGE_COUNTS.forEach(function (k) {
      problem(k[1], c.counts[k[0]], k[2] && c.counts[k[0]] > 0, boxes);
    });
    if (measured) {
      problem('unlinked', c.counts.unlinked, c.counts.unlinked > 0, boxes);
    } else {
      var note = document.createElement('div');
      note.className = 'sub';
      note.textContent = 'unlinked: not measured: needs output.links in both crawls';
      div.appendChild(note);
    }
    if (c.unreadableLines > 0) {
      var bad = document.createElement('div');
      bad.className = 'sub';
      bad.textContent = number(c.unreadableLines) + ' line(s) of changes.jsonl are not changes, left out';
      div.appendChild(bad);
    }
    CHANGE_LISTS.forEach(function (l) {
      var total = c.totals[l[0]];
      if (total > 0) {
        var h3 = document.createElement('h3');
        h3.textContent = l[1] + ' (' + number(total) + ')';
        div.appendChild(h3);
        table(div, c.lists[l[0]], total, 'changes.jsonl');
      }
    });
    document.getElementById('changes').appendChild(div);
  }

  // ---- the rules the crawl learned: rules.jsonl and pages.jsonl's trap records (data.rules), joined by the rule's
  // text with what each did in the last run (summary.json's learned.list) ----
  function ruleRow(known, did) {
    return {
      rule: known.rule,
      host: known.host || (did ? did.host : null),
      kind: known.kind || (did ? did.kind : null),
      'not fetched (trap records)': typeof known.traps === 'number' ? known.traps : null,
      refused: did ? did.refused : null,
      rewritten: did ? did.rewritten : null,
      sampled: did ? did.sampled : null,
      undone: known.undone ? known.undone.replace('T', ' ').replace(/\.\d+Z$/, 'Z')
        : did && did.undone ? 'yes' : '',
      'undone by': known.undoneUrl ? (known.undoneWhy ? [known.undoneUrl, known.undoneWhy] : [known.undoneUrl])
        : null
    };
  }
  function rules() {
    var r = data.rules;
    var did = Object.create(null); // by the rule's text, which the network's text is in: no prototype to reach
    var list = (s && s.learned && Array.isArray(s.learned.list) ? s.learned.list : []).filter(function (t) {
      return t !== null && typeof t === 'object' && typeof t.rule === 'string';
    });
    list.forEach(function (t) { did[t.rule] = t; });
    var rows = [], listed = Object.create(null);
    (r ? r.list : []).forEach(function (known) {
      listed[known.rule] = true;
      rows.push(ruleRow(known, did[known.rule]));
    });
    list.forEach(function (t) {
      if (!listed[t.rule]) {
        rows.push(ruleRow({ rule: t.rule }, t));
      }
    });
    if (!rows.length) {
      return;
    }
    var div = document.createElement('div');
    div.className = 'card';
    var h = document.createElement('h2');
    h.textContent = 'Rules learned (' + number(Math.max(rows.length, r ? r.total : 0)) + ')';
    div.appendChild(h);
    var about = document.createElement('div');
    about.className = 'sub';
    about.textContent = 'Learned from the pages fetched (scope.learn-duplicates): a parameter that never changes a'
      + ' page is dropped, a URL template whose pages are all near-duplicates is not fetched, an alias parameter'
      + ' or path segment (?print=1, /print/) is dropped. Of the URLs a rule would refuse or rewrite, the 1st, 2nd,'
      + ' 4th, 8th and 16th, then 1 in 50, are fetched anyway, and a sample with new content undoes the rule.'
      + ' "not fetched" counts the trap records of pages.jsonl naming the rule; refused, rewritten and sampled are'
      + ' the last run\'s (summary.json).'
      + ' To turn the rules off: --set scope.learn-duplicates=false; to give parameters by hand:'
      + ' scope.ignore-params: [sid, utm_*].';
    div.appendChild(about);
    if (r && r.unreadableLines > 0) {
      var bad = document.createElement('div');
      bad.className = 'sub';
      bad.textContent = number(r.unreadableLines) + ' line(s) of rules.jsonl are not rules, left out';
      div.appendChild(bad);
    }
    if (r && r.otherTraps > 0) {
      var other = document.createElement('div');
      other.className = 'sub';
      other.textContent = number(r.otherTraps) + ' trap record(s) of further rules, not listed';
      div.appendChild(other);
    }
    table(div, rows, r ? Math.max(r.total, rows.length) : rows.length, 'rules.jsonl');
    document.getElementById('rules').appendChild(div);
  }

  changes();
  problems();
  tables();
  rules();

  function painted(canvas) {
    var pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    for (var i = 3; i < pixels.length; i += 4) {
      if (pixels[i] !== 0) {
        return true;
      }
    }
    return false;
  }
  document.documentElement.setAttribute('data-charts', String(canvases.length));
  document.documentElement.setAttribute('data-charts-painted', String(canvases.filter(painted).length));
  document.documentElement.setAttribute('data-charts-expected', String(expected));
  document.documentElement.setAttribute('data-tables', String(tablesDrawn));
  document.documentElement.setAttribute('data-tables-expected', String(tablesExpected));
})();
