/**
 * HTML of the operators' console (server-rendered; the behaviour is api/routes/admin-assets.ts):
 * the page frame with its Content-Security-Policy, the sign-in and sign-out pages, a refusal page,
 * and the small pieces the jobs pages are built of (escaped cells, relative times, action buttons).
 * Every value reaches the page through esc(); nothing here writes an inline script or style.
 */
import type { Response } from "express";

/** Scripts, styles and fetches from this origin only; no inline script, no framing, forms post here. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export function esc(v: unknown): string {
  if (v === null || v === undefined) return "—";
  const s = v instanceof Date ? v.toISOString() : String(v);
  return s.replace(/[&<>"']/g, (c) => ESC[c]!);
}

/** "3 min ago" (or "in 20 s") from the server's clock; the script keeps it current. */
export function relative(at: Date | string | null | undefined, now: Date): string {
  if (!at) return "—";
  const d = at instanceof Date ? at : new Date(at);
  const s = Math.round((now.getTime() - d.getTime()) / 1000);
  const a = Math.abs(s);
  if (a < 5) return "just now";
  const out = a < 60 ? `${a} s` : a < 3600 ? `${Math.round(a / 60)} min` : a < 172_800 ? `${Math.round(a / 3600)} h` : `${Math.round(a / 86_400)} d`;
  return s < 0 ? `in ${out}` : `${out} ago`;
}

/** A <time> that shows a relative time and carries the exact one (title, datetime). */
export function when(at: Date | string | null | undefined, now: Date): string {
  if (!at) return "—";
  const iso = at instanceof Date ? at.toISOString() : at;
  return `<time data-rel datetime="${esc(iso)}" title="${esc(iso)}">${esc(relative(iso, now))}</time>`;
}

/** A raw HTML cell value (already escaped by the caller). */
export class Html {
  constructor(readonly html: string) {}
}
export const html = (s: string) => new Html(s);

function cell(v: unknown): string {
  return v instanceof Html ? v.html : esc(v);
}

const blank = (v: unknown) => v === "" || v === null || v === undefined || (v instanceof Html && v.html === "");

/** A table; a column with nothing in any row is left out (no empty column). */
export function table(headers: string[], rows: unknown[][], empty: string, cls: Array<string | undefined> = []): string {
  if (rows.length === 0) return `<p class="empty">${esc(empty)}</p>`;
  const keep = headers.map((_, i) => rows.some((r) => !blank(r[i])));
  const head = headers.map((h, i) => (keep[i] ? `<th>${esc(h)}</th>` : "")).join("");
  const body = rows
    .map((r) => `<tr>${r.map((c, i) => (keep[i] ? `<td${cls[i] ? ` class="${cls[i]}"` : ""}>${cell(c)}</td>` : "")).join("")}</tr>`)
    .join("\n");
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** An id in monospace, cut to its column with an ellipsis: the whole id is its title (hover) and its text (copy). */
export function idCell(id: string, href?: string): Html {
  return href ? html(`<a class="mono" href="${esc(href)}" title="${esc(id)}">${esc(id)}</a>`) : html(`<span class="mono" title="${esc(id)}">${esc(id)}</span>`);
}

/** A button that POSTs `body` as JSON to `url` (the console script does it). */
export function actionButton(label: string, url: string, body: object = {}, o: { confirm?: string; done?: string; cls?: string; id?: string } = {}): string {
  return `<button type="button"${o.id ? ` id="${esc(o.id)}"` : ""} class="${esc(o.cls ?? "")}" data-post="${esc(url)}" data-body="${esc(JSON.stringify(body))}"${
    o.confirm ? ` data-confirm="${esc(o.confirm)}"` : ""
  }${o.done ? ` data-done="${esc(o.done)}"` : ""}>${esc(label)}</button>`;
}

export function status(s: string): Html {
  return html(`<span class="st-${esc(s)}">${esc(s)}</span>`);
}

export interface Viewer {
  email: string;
}

/** `scripts`, `styles`: further same-origin assets of one page (the jobs page's charts). */
export function page(title: string, body: string, o: { viewer?: Viewer; live?: number; scripts?: string[]; styles?: string[] } = {}): string {
  const nav = o.viewer
    ? `<a href="/admin/jobs">Jobs</a><a href="/admin/queues">Queues</a><span class="who">${esc(o.viewer.email)} · <button type="button" id="sign-out">Sign out</button></span>`
    : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title>${(o.styles ?? []).map((h) => `<link rel="stylesheet" href="${esc(h)}">`).join("")}<link rel="stylesheet" href="/admin/assets/console.css"><script src="/admin/assets/console.js" defer></script>${(o.scripts ?? []).map((h) => `<script src="${esc(h)}" defer></script>`).join("")}</head>
<body><header><strong>CodeSynapse</strong>${nav}</header><main${o.live ? ` data-live="${o.live}"` : ""}>${body}</main></body></html>`;
}

export function sendPage(res: Response, statusCode: number, htmlText: string): void {
  res.status(statusCode).setHeader("content-security-policy", CONSOLE_CSP);
  res.setHeader("cache-control", "no-store");
  res.setHeader("x-frame-options", "DENY");
  res.type("html").send(htmlText);
}

export function signInPage(o: { signedOut?: boolean; ended?: boolean }): string {
  const note = o.signedOut ? "<p>You are signed out.</p>" : o.ended ? "<p>Your sign-in has ended; sign in again.</p>" : "";
  return page(
    "Sign in · CodeSynapse",
    `<div class="card"><h1>Sign in</h1>${note}<p class="muted">The operators' console is for platform administrators.</p>
<form id="sign-in" autocomplete="on"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button class="primary" type="submit">Sign in</button><div id="sign-in-error" class="error" role="alert"></div></form></div>`,
  );
}

export function refusedPage(viewer: Viewer | undefined, code: string, message: string): string {
  return page(
    "Not allowed · CodeSynapse",
    `<div class="card"><h1>Not allowed</h1><p>${esc(message)}</p><p class="muted">Code: <span class="code">${esc(code)}</span></p>
<p>You are signed in${viewer ? ` as <strong>${esc(viewer.email)}</strong>` : ""}. A platform administrator can make an account one with <code>codesynapse admin create-user --platform-admin</code> (or <code>admin bootstrap</code>).</p>
<button type="button" id="sign-out">Sign out and sign in as someone else</button></div>`,
  );
}
