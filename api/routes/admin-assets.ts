/**
 * The operators' console's stylesheet and script, served same-origin from /admin/assets/ (no CDN),
 * so the pages run under a strict Content-Security-Policy: scripts and styles from 'self' only,
 * no inline script, no eval, fetch to this origin only.
 *
 * The script:
 *   - sign-in: posts the form as JSON to POST /api/v1/auth/login (the existing route, same-origin,
 *     so it passes the CSRF guard) and goes on to the page that sent the browser there; a refusal is
 *     said in words: wrong credentials, too many attempts (with the wait from Retry-After), disabled;
 *   - sign-out: POST /api/v1/auth/logout, then back to the sign-in page;
 *   - actions: a button with data-post (a URL) posts its data-body as JSON (confirming first when it
 *     has data-confirm), says what happened, and refreshes the page;
 *   - live updates: a <main data-live> page re-reads itself every few seconds and swaps its content
 *     (kept while a filter control has the focus); <time data-rel> elements show relative times.
 */
export const CONSOLE_CSS = `
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{display:flex;align-items:center;gap:18px;padding:10px 24px;background:#1d2330;color:#fff}
header a{color:#dfe6f3;text-decoration:none}header a:hover{text-decoration:underline}
header .who{margin-left:auto;color:#b8c2d6;font-size:13px}
main{padding:8px 24px 40px;max-width:100%}
h1{font-size:20px;margin:14px 0 6px}h2{font-size:16px;margin:24px 0 8px}
table{border-collapse:collapse;background:#fff;width:100%;table-layout:auto}
th,td{border:1px solid #d8dde6;padding:4px 8px;text-align:left;vertical-align:top;font-variant-numeric:tabular-nums}
th{background:#eef1f6;font-weight:600;white-space:nowrap}
td.msg{overflow-wrap:anywhere}
td.id .mono,td.id .nm{display:block;max-width:17ch;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
h1 .mono{font-size:15px}
td.msg{min-width:180px}
td.act{white-space:nowrap}
button.small{font-size:12px;padding:0 6px;margin-left:4px}
label.check{flex-direction:row!important;align-items:center;gap:6px;font-size:13px!important;padding-bottom:4px}
#charts{margin-top:8px}
.charts-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:6px 16px}.charts-head h2{margin-bottom:4px}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:12px}
.charts figure{margin:0;background:#fff;border:1px solid #d8dde6;padding:8px 10px;min-width:0}
.charts figcaption{font-weight:600;font-size:13px;margin-bottom:4px}
#charts.failed .charts{opacity:.4}
pre.json{background:#fff;border:1px solid #d8dde6;padding:10px 12px;margin:0;max-height:420px;overflow:auto;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;overflow-wrap:anywhere}
.truncated{color:#b54708;font-weight:600;margin:4px 0 0}
.empty{color:#6b7385}.muted{color:#6b7385;font-size:12px}
.st-failed,.st-refused,.st-abandoned,.code{color:#b42318;font-weight:600}
.st-succeeded{color:#067647}.st-running{color:#175cd3}
form.filters{display:flex;flex-wrap:wrap;gap:8px 14px;align-items:end;background:#fff;border:1px solid #d8dde6;padding:10px 12px}
form.filters label{display:flex;flex-direction:column;font-size:12px;color:#454e60}
select,input{font:inherit;padding:3px 6px;border:1px solid #b9c1cf;border-radius:4px;background:#fff}
button{white-space:nowrap;font:inherit;padding:3px 10px;border:1px solid #8d98ab;border-radius:4px;background:#fff;cursor:pointer}
button.primary{background:#175cd3;border-color:#175cd3;color:#fff}
button.danger{border-color:#b42318;color:#b42318}
button:disabled{opacity:.5;cursor:default}
#flash{min-height:1.4em;margin:8px 0;font-weight:600}
#flash.ok{color:#067647}#flash.err{color:#b42318}
.card{max-width:420px;margin:60px auto;background:#fff;border:1px solid #d8dde6;border-radius:8px;padding:24px 28px}
.card h1{margin-top:0}.card label{display:block;margin:12px 0 4px;font-weight:600}.card input{width:100%}
.card button{margin-top:16px;width:100%}
.error{color:#b42318;font-weight:600;min-height:1.4em;margin-top:12px}
dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;background:#fff;border:1px solid #d8dde6;padding:10px 14px}
dl.kv dt{font-weight:600;color:#454e60}dl.kv dd{margin:0;overflow-wrap:anywhere}
.actions{display:flex;gap:8px;margin:12px 0}.actions:empty{display:none}
`;

export const CONSOLE_JS = `"use strict";
(function () {
  var $ = function (s, el) { return (el || document).querySelector(s); };
  var $$ = function (s, el) { return Array.prototype.slice.call((el || document).querySelectorAll(s)); };

  function rel(iso) {
    var t = Date.parse(iso);
    if (isNaN(t)) return iso;
    var s = Math.round((Date.now() - t) / 1000), future = s < 0, a = Math.abs(s), out;
    if (a < 5) return "just now";
    if (a < 60) out = a + " s"; else if (a < 3600) out = Math.round(a / 60) + " min";
    else if (a < 172800) out = Math.round(a / 3600) + " h"; else out = Math.round(a / 86400) + " d";
    return future ? "in " + out : out + " ago";
  }
  function relTimes() { $$("time[data-rel]").forEach(function (el) { el.textContent = rel(el.getAttribute("datetime")); }); }

  function flash(text, ok) {
    var el = $("#flash");
    if (!el) return;
    el.textContent = text;
    el.className = ok ? "ok" : "err";
  }

  function errorText(res, body) {
    var e = body && body.error ? body.error : null;
    if (res.status === 429) {
      var s = Number(res.headers.get("retry-after")) || (e && e.details && e.details.retry_after_s) || 0;
      var when = new Date(Date.now() + s * 1000).toLocaleTimeString();
      return "Too many failed sign-ins from this browser: signing in is blocked for " + s + " s (until " + when + "). Each further failure makes the wait longer.";
    }
    if (e && e.code === "invalid_credentials") return "The email or password is wrong.";
    if (e && e.code === "csrf_refused") return "This request did not come from this site's own page; reload the page and try again.";
    if (e && e.message) return e.message + (e.code ? " (" + e.code + ")" : "");
    return "The server answered " + res.status + ".";
  }

  function post(url, body) {
    return fetch(url, { method: "POST", credentials: "same-origin", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body || {}) })
      .then(function (res) {
        return res.text().then(function (t) { var b = null; try { b = t ? JSON.parse(t) : null; } catch (_) { b = null; } return { res: res, body: b }; });
      });
  }

  function safeNext() {
    var n = new URLSearchParams(location.search).get("next") || "/admin/jobs";
    return /^\\/admin\\/[A-Za-z0-9_\\-\\/.?=&%:]*$/.test(n) && n.indexOf("//") < 0 ? n : "/admin/jobs";
  }

  var signIn = $("#sign-in");
  if (signIn) {
    signIn.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var btn = $("button", signIn), err = $("#sign-in-error");
      btn.disabled = true; err.textContent = "";
      post("/api/v1/auth/login", { email: $("#email").value, password: $("#password").value }).then(function (r) {
        btn.disabled = false;
        if (r.res.ok) { location.assign(safeNext()); return; }
        err.textContent = errorText(r.res, r.body);
      }, function () { btn.disabled = false; err.textContent = "The server could not be reached."; });
    });
  }

  var signOut = $("#sign-out");
  if (signOut) {
    signOut.addEventListener("click", function () {
      post("/api/v1/auth/logout", {}).then(function () { location.assign("/admin/sign-in?signed_out=1"); });
    });
  }

  document.addEventListener("click", function (ev) {
    var btn = ev.target && ev.target.closest ? ev.target.closest("button[data-post]") : null;
    if (!btn) return;
    var question = btn.getAttribute("data-confirm");
    if (question && !window.confirm(question)) return;
    btn.disabled = true;
    var body = {};
    try { body = JSON.parse(btn.getAttribute("data-body") || "{}"); } catch (_) { body = {}; }
    post(btn.getAttribute("data-post"), body).then(function (r) {
      btn.disabled = false;
      if (!r.res.ok) { flash(errorText(r.res, r.body), false); return; }
      var done = btn.getAttribute("data-done") || "Done.";
      if (r.body && typeof r.body.replayed === "number") done = "Replayed " + r.body.replayed + " job" + (r.body.replayed === 1 ? "" : "s") + (r.body.more ? " (more matched: replay again)" : "") + ".";
      flash(done, true);
      refresh();
    }, function () { btn.disabled = false; flash("The server could not be reached.", false); });
  });

  // The system-sweeps toggle applies as soon as it changes.
  $$("form.filters input[type=checkbox]").forEach(function (el) {
    el.addEventListener("change", function () { el.form.submit(); });
  });

  var live = $("main[data-live]");
  function refresh() {
    if (!live) return;
    var focused = document.activeElement && live.contains(document.activeElement) && /SELECT|INPUT/.test(document.activeElement.tagName);
    if (focused) return;
    fetch(location.href, { credentials: "same-origin", headers: { accept: "text/html" } }).then(function (res) {
      if (res.redirected || res.status === 401) { location.assign("/admin/sign-in?next=" + encodeURIComponent(location.pathname + location.search)); return null; }
      return res.ok ? res.text() : null;
    }).then(function (html) {
      if (!html) return;
      var doc = new DOMParser().parseFromString(html, "text/html");
      var next = doc.querySelector("main[data-live] [data-region]");
      var cur = live.querySelector("[data-region]");
      if (next && cur) { cur.replaceWith(next); relTimes(); var at = $("#updated"); if (at) at.textContent = new Date().toISOString().slice(11, 19); }
    }).catch(function () { /* the next tick tries again */ });
  }
  if (live) setInterval(refresh, Number(live.getAttribute("data-live")) || 5000);
  relTimes();
  setInterval(relTimes, 15000);
})();
`;
