/**
 * GET /api/reference: the interactive API reference over GET /api/openapi.json,
 * rendered in the browser by Scalar's standalone bundle (@scalar/api-reference,
 * dist/browser/standalone.js) that this server serves itself — no CDN, no font
 * host, no request leaves the origin. Public like the document it renders (it
 * describes, it grants nothing); "Test Request" calls the API same-origin, with
 * whatever credentials the reader supplies.
 *
 *   GET /api/reference                          the page: no-cache, the CSP below
 *   GET /api/reference/favicon.svg              a one-line icon (no request for /favicon.ico)
 *   GET /api/reference/scalar-<version>.js      the bundle, streamed from node_modules
 *                                               on each request (never held in memory),
 *                                               cached for a year: the URL changes with
 *                                               the package version
 *
 * The page carries no inline script: the configuration is a data attribute the
 * bundle reads. Decisions (docs/security.md, "API reference page"): scripts,
 * fetches, images and fonts only from 'self'; styles from 'self' and 'unsafe-inline',
 * because the bundle (Vue) injects <style> elements and style attributes at run
 * time, which no hash or nonce can cover.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Router } from "express";

export const REFERENCE_PATH = "/api/reference";

export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * Scalar's options: the catalog's operationIds shown, every tag open (the reference
 * lists every operation), and every feature that calls Scalar's hosts off: its web
 * fonts, telemetry, the AI agent, the developer toolbar's "share" upload.
 */
const SCALAR_CONFIGURATION = {
  url: "/api/openapi.json",
  showOperationId: true,
  defaultOpenAllTags: true,
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: "never",
};

interface Bundle {
  file: string;
  url: string;
}

/** Where the installed bundle is and its versioned URL; reads only the package's package.json. */
export function scalarBundle(): Bundle {
  const require = createRequire(import.meta.url);
  // The package exports no ./browser/ subpath (1.47 on); the bundle sits beside its main entry, dist/.
  const file = path.join(path.dirname(require.resolve("@scalar/api-reference")), "browser", "standalone.js");
  const pkg = JSON.parse(readFileSync(path.resolve(path.dirname(file), "../../package.json"), "utf8")) as { version: string };
  return { file, url: `${REFERENCE_PATH}/scalar-${pkg.version}.js` };
}

const FAVICON_PATH = `${REFERENCE_PATH}/favicon.svg`;
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1d2330"/><path d="M5 4 2 8l3 4M11 4l3 4-3 4" stroke="#fff" stroke-width="1.6" fill="none"/></svg>`;

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const attr = (v: string) => v.replace(/[&<>"]/g, (c) => ESC[c]!);

function page(bundleUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>CodeSynapse API reference</title>
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
</head>
<body>
<script id="api-reference" data-configuration="${attr(JSON.stringify(SCALAR_CONFIGURATION))}"></script>
<script src="${attr(bundleUrl)}"></script>
</body>
</html>
`;
}

export function referenceRoutes(): Router {
  const r = Router();
  const bundle = scalarBundle();
  const html = page(bundle.url);
  r.get(REFERENCE_PATH, (_req, res) => {
    res.setHeader("content-security-policy", REFERENCE_CSP);
    res.setHeader("cache-control", "no-cache");
    res.setHeader("x-content-type-options", "nosniff");
    res.setHeader("referrer-policy", "no-referrer");
    res.type("html").send(html);
  });
  r.get(FAVICON_PATH, (_req, res) => {
    res.setHeader("cache-control", "public, max-age=86400");
    res.setHeader("x-content-type-options", "nosniff");
    res.type("image/svg+xml").send(FAVICON);
  });
  r.get(bundle.url, (_req, res) => {
    res.sendFile(bundle.file, { maxAge: "365d", immutable: true, lastModified: false, headers: { "x-content-type-options": "nosniff" } });
  });
  return r;
}
