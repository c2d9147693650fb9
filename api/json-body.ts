/**
 * The JSON body parser, with each route's limit (HTTP-6). Every JSON body is at most
 * BODY_LIMIT_BYTES, except on the routes of an operation that declares a larger body
 * (`Operation.bodyBytes`: a documented field limit, such as an import's 1,048,576 characters, needs
 * it in any JSON encoding) and on /mcp, which carries every tool's call and so takes the largest
 * of them. A body over its route's limit is 413 `payload_too_large` naming that limit
 * (api/body-errors.ts), before any work. Raw-body routes (an operation's `raw` binding: a
 * snapshot upload's archive, api/raw-body.ts) are left to their own reader; every other body must
 * be JSON (`jsonBodyOnly`). Both lists come from the catalog.
 */
import express, { type Request, type RequestHandler } from "express";
import { BODY_LIMIT_BYTES } from "../core/limits";
import { CATALOG } from "../ops/catalog";
import type { Operation } from "../ops/operation";
import { JSON_TYPES, notJson } from "./body-errors";
import { MCP_PATH } from "./mcp/http-rules";

/** A route with a body limit of its own: its method, its path as a pattern, its limit in bytes. */
export interface BodyRoute {
  method: string;
  path: string;
  pattern: RegExp;
  limit: number;
}

/** An Express path (`/api/v1/repos/:repo/…`) as an anchored pattern of request paths. */
function pathPattern(path: string): RegExp {
  const source = path
    .split("/")
    .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}/?$`);
}

/** The routes whose body is not JSON: the catalog's raw bindings, by path. */
const RAW_BODY_ROUTES = CATALOG.flatMap((op) => (op.http ?? []).filter((b) => b.raw).map((b) => pathPattern(b.path)));

/** Whether the request goes to a raw-body route (the JSON parser leaves those alone). */
export function isRawBodyRoute(req: Request): boolean {
  return RAW_BODY_ROUTES.some((r) => r.test(req.path));
}

/**
 * Protocol hygiene: a request that carries a body (POST, PUT, PATCH, DELETE) must send it as JSON
 * (`application/json` or `application/*+json`), except on the raw-body routes; anything else is
 * 415 `unsupported_media_type` instead of a route running on defaults.
 */
export function jsonBodyOnly(): RequestHandler {
  return (req, _res, next) => {
    const length = req.headers["content-length"];
    const hasBody = req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
    if (!hasBody || req.method === "GET" || req.method === "HEAD" || isRawBodyRoute(req)) return next();
    next(req.is(JSON_TYPES) ? undefined : notJson());
  };
}

/** Every route whose body limit is not BODY_LIMIT_BYTES: the operations' own, and /mcp's. */
export function bodyRoutes(catalog: readonly Operation[] = CATALOG): BodyRoute[] {
  const routes: BodyRoute[] = [];
  let mcp = BODY_LIMIT_BYTES;
  for (const op of catalog) {
    const limit = Math.max(BODY_LIMIT_BYTES, op.bodyBytes ?? 0);
    if (op.mcp) mcp = Math.max(mcp, limit);
    if (limit === BODY_LIMIT_BYTES) continue;
    for (const b of op.http ?? []) {
      if (b.method !== "get" && !b.raw) routes.push({ method: b.method.toUpperCase(), path: b.path, pattern: pathPattern(b.path), limit });
    }
  }
  if (mcp > BODY_LIMIT_BYTES) routes.push({ method: "POST", path: MCP_PATH, pattern: pathPattern(MCP_PATH), limit: mcp });
  return routes;
}

/** The JSON body limit of a request: its route's own, else BODY_LIMIT_BYTES. */
export function bodyLimitOf(routes: readonly BodyRoute[], method: string, path: string): number {
  return routes.find((r) => r.method === method && r.pattern.test(path))?.limit ?? BODY_LIMIT_BYTES;
}

/** express.json with each route's limit; one parser per distinct limit. */
export function jsonBodies(catalog: readonly Operation[] = CATALOG): RequestHandler {
  const routes = bodyRoutes(catalog);
  const parsers = new Map<number, RequestHandler>();
  const parserFor = (limit: number): RequestHandler => {
    let p = parsers.get(limit);
    if (!p) {
      p = express.json({ limit, strict: false, type: (req) => !isRawBodyRoute(req as Request) && Boolean((req as Request).is(JSON_TYPES)) });
      parsers.set(limit, p);
    }
    return p;
  };
  return (req, res, next) => parserFor(bodyLimitOf(routes, req.method, req.path))(req, res, next);
}
