/**
 * The script that draws the jobs page's charts (served at /admin/assets/charts.js, same-origin, no
 * inline script; uPlot is loaded before it from /admin/assets/uplot.js). It reads the charts' data
 * from the URL in #charts[data-src] (GET /api/v1/admin/charts), draws one uPlot chart per
 * [data-chart] box — a line per pool; p95 solid and p50 dashed for the wait and run times — and
 * reads them again every 30 s. Times on the axis are UTC, like the rest of the page.
 */
export const CHARTS_JS = `"use strict";
(function () {
  var box = document.getElementById("charts");
  if (!box || typeof uPlot === "undefined") return;
  var COLORS = { ingest: "#175cd3", ai: "#7a2fd6", embedding: "#0e9384", fix: "#c4320a", cleanup: "#667085" };
  var EXTRA = ["#b54708", "#3e4784", "#dd2590", "#4e5ba6"];
  var plots = [];
  function color(pool, i) { return COLORS[pool] || EXTRA[i % EXTRA.length]; }
  function perMinute(xs, step) { return xs.map(function (v) { return v === null ? null : Math.round((v * 60 / step) * 100) / 100; }); }
  function secs(v) { return v === null || v === undefined ? "—" : v < 1 ? Math.round(v * 1000) + " ms" : v < 120 ? (Math.round(v * 10) / 10) + " s" : Math.round(v / 60) + " min"; }

  var CHARTS = {
    ended: { unit: "/min", series: function (p, step) { return [{ label: p.pool, data: perMinute(p.ended, step) }]; } },
    failed: { unit: "/min", series: function (p, step) { return [{ label: p.pool, data: perMinute(p.failed, step) }]; } },
    wait: { unit: "s", series: function (p) { return [{ label: p.pool + " p95", data: p.wait_p95 }, { label: p.pool + " p50", data: p.wait_p50, dash: true }]; } },
    run: { unit: "s", series: function (p) { return [{ label: p.pool + " p95", data: p.run_p95 }, { label: p.pool + " p50", data: p.run_p50, dash: true }]; } },
    depth: { unit: "", series: function (p) { return [{ label: p.pool, data: p.depth }]; } }
  };

  function draw(d) {
    plots.forEach(function (u) { u.destroy(); });
    plots = [];
    var empty = d.pools.length === 0;
    var note = document.getElementById("charts-empty");
    if (note) note.hidden = !empty;
    Array.prototype.slice.call(box.querySelectorAll("[data-chart]")).forEach(function (el) {
      el.textContent = "";
      var def = CHARTS[el.getAttribute("data-chart")];
      if (!def || empty) return;
      var series = [{ value: "{YYYY}-{MM}-{DD} {HH}:{mm}" }], data = [d.buckets];
      d.pools.forEach(function (p, i) {
        def.series(p, d.step_s).forEach(function (s) {
          series.push({
            label: s.label, stroke: color(p.pool, i), width: s.dash ? 1.5 : 2, dash: s.dash ? [5, 4] : undefined,
            // Percentiles have gaps (no job ended in a step): their lone points are drawn; counts are lines.
            points: { show: def.unit === "s", size: 4 }, spanGaps: false,
            value: def.unit === "s" ? function (u, v) { return secs(v); } : function (u, v) { return v === null ? "—" : v + (def.unit === "/min" ? "/min" : ""); }
          });
          data.push(s.data);
        });
      });
      var width = Math.max(280, el.clientWidth || 560);
      plots.push(new uPlot({
        width: width, height: 200, series: series,
        tzDate: function (ts) { return uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"); },
        scales: { y: { range: function (u, min, max) { return [0, max > 0 ? max * 1.1 : 1]; } } },
        axes: [{ values: function (u, ts) { return ts.map(function (t) { return new Date(t * 1000).toISOString().slice(11, 16); }); } }, { size: 60, values: def.unit === "s" ? function (u, vs) { return vs.map(secs); } : undefined }],
        legend: { live: true }
      }, data, el));
    });
    var at = document.getElementById("charts-updated");
    if (at) at.textContent = d.generated_at.slice(11, 19);
  }

  function load() {
    fetch(box.getAttribute("data-src"), { credentials: "same-origin", headers: { accept: "application/json" } })
      .then(function (res) { return res.ok ? res.json() : Promise.reject(res.status); })
      .then(function (d) { box.classList.remove("failed"); draw(d); box.setAttribute("data-drawn", d.window); })
      .catch(function () { box.classList.add("failed"); });
  }
  load();
  setInterval(load, 30000);
})();
`;
