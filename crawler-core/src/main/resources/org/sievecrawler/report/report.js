// Draws report.html's charts from the JSON in #report-data with Chart.js. When done, <html> gets
// data-charts (charts drawn), data-charts-painted (of those, canvases with pixels painted) and data-charts-expected
// (charts the data called for): a headless browser checks them.
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
      options: { indexAxis: horizontal ? 'y' : 'x', scales: { x: { ticks: { autoSkip: !horizontal } } } }
    });
  }
  function cut(text, n) {
    return text.length > n ? text.substring(0, n - 1) + '…' : text;
  }

  // progress lines: x is seconds since the first line's time ("at"); lines without one (none expected) count by
  // elapsed, which starts again at each run of a resumed crawl
  var t0 = data.progress.length && data.progress[0].at ? Date.parse(data.progress[0].at) : null;
  var offset = 0, last = -1, points = [];
  data.progress.forEach(function (p) {
    if (p.elapsed < last) {
      offset += last;
    }
    last = p.elapsed;
    var t = t0 !== null && p.at ? (Date.parse(p.at) - t0) / 1000 : offset + p.elapsed;
    points.push({ t: t, p: p });
  });

  var s = data.summary;
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
      { label: 'rate (last interval)', data: points.map(function (q) { return { x: q.t, y: q.p.rate }; }),
        borderColor: '#1f77b4', backgroundColor: '#1f77b4', pointRadius: 0 },
      { label: 'average', data: points.map(function (q) { return { x: q.t, y: q.p.avg }; }),
        borderColor: '#ff7f0e', backgroundColor: '#ff7f0e', pointRadius: 0, borderDash: [4, 3] }] },
    options: { plugins: { legend: { display: true } },
      scales: { x: { type: 'linear', title: { display: true, text: 'seconds since the first progress line' } },
        y: { beginAtZero: true, title: { display: true, text: 'pages/s' } } } }
  });

  var outcomes = Object.keys(data.outcomes).sort(function (a, b) { return data.outcomes[b] - data.outcomes[a]; });
  bars('Outcomes', outcomes, outcomes.map(function (k) { return data.outcomes[k]; }), '#2ca02c', true,
    'no records');

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

  var expectedUrls = s ? s.sieve.expectedUrls : null;
  var sieve = [
    { label: 'seen~', data: points.map(function (q) { return { x: q.t, y: q.p.seen }; }), yAxisID: 'y',
      borderColor: '#1f77b4', backgroundColor: '#1f77b4', pointRadius: 0 },
    { label: 'false-positive rate %', data: points.map(function (q) { return { x: q.t, y: q.p.fpr * 100 }; }),
      yAxisID: 'fpr', borderColor: '#d62728', backgroundColor: '#d62728', pointRadius: 0 }];
  if (expectedUrls && points.length) {
    sieve.push({ label: 'sieve.expected-urls', yAxisID: 'y', borderColor: '#7f7f7f', backgroundColor: '#7f7f7f',
      borderDash: [6, 4], pointRadius: 0,
      data: [{ x: points[0].t, y: expectedUrls }, { x: points[points.length - 1].t, y: expectedUrls }] });
  }
  draw(card('Sieve: seen~ and false-positive rate', points.length ? null : 'no progress lines (progress.jsonl)'), {
    type: 'line',
    data: { datasets: sieve },
    options: { plugins: { legend: { display: true } },
      scales: { x: { type: 'linear', title: { display: true, text: 'seconds since the first progress line' } },
        y: { beginAtZero: true, title: { display: true, text: 'URLs' } },
        fpr: { position: 'right', beginAtZero: true, grid: { drawOnChartArea: false },
          ticks: { callback: function (v) { return Number(v).toPrecision(2); } },
          title: { display: true, text: 'fpr %' } } } }
  });

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
})();
