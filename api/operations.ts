/**
 * The REST mounter: every HTTP binding of every catalog operation
 * (ops/catalog.ts) becomes one route behind the guard its auth kind names
 * (ops/operation.ts): the execution boundary (requireExecution), credentials
 * alone (requireActor), a platform admin's, the local operator's token or a
 * platform admin's (requireLocalAdmin), or nothing. The route's input is its path parameters, its query
 * (GET) or JSON body (otherwise) — under the binding's wire names (`rename`)
 * —, the request headers it names (`fromHeaders`) and the binding's fixed
 * fields, validated by the operation's own schema (strict: a field the route
 * does not take is refused; then the operation's cross-field rules); the
 * repository permission the operation declares is checked before `run`. The
 * answer is the binding's status (or the one `run` chose among
 * `otherStatus`), its `toHeaders` fields as response headers. Two binding
 * kinds are not JSON: `raw` (the body is bytes, api/raw-body.ts) and `stream`
 * (Server-Sent Events, api/sse.ts). Every answer passes the operation's
 * output schema first (api/output-check.ts): a field the schema lacks never
 * leaves unnoticed. The MCP mounter (api/mcp/tools/operations.ts) does the
 * same from tool arguments, through the same `runOperation` (api/run-operation.ts); the CLI mounter
 * (api/cli-operations.ts) from command-line flags.
 */
import { Router, type Request, type RequestHandler, type Response } from "express";
import { z } from "zod";
import { AppError } from "../core/errors";
import { authOf, inputSchemaOf, WithStatus, type EventStream, type HttpBinding, type Operation } from "../ops/operation";
import { CATALOG, REMOVED_ROUTES } from "../ops/catalog";
import type { AppContext } from "./context";
import { executionOf, principalOf, requireExecution, type RepoAsk } from "./execution";
import { requireActor, requireLocalAdmin, requirePlatformAdmin } from "./auth";
import { actorOf, clientIp, parseWith, readCookie, route } from "./http";
import { conformOutput } from "./output-check";
import { conformAnswer, outputCheckOf, repoAskOf, runOperation, type ResolvedCaller } from "./run-operation";
import { checkRaw, RAW_BODIES, rawReader } from "./raw-body";
import { sendEvents } from "./sse";

/** The names of a path's `:params`. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
}

/** A binding's path parameters: each one's name in the path and the input field it fills (`rename` maps field → wire name). */
export function pathFields(b: HttpBinding): Array<{ wire: string; field: string }> {
  const byWire = new Map(Object.entries(b.rename ?? {}).map(([field, wire]) => [wire, field]));
  return pathParams(b.path).map((wire) => ({ wire, field: byWire.get(wire) ?? wire }));
}

/**
 * The fields a route reads from its query or body, under their wire names: the input minus path
 * parameters, fixed fields and header fields (none for a raw body).
 */
export function clientFields(op: Operation, b: HttpBinding): z.ZodObject {
  if (b.raw) return z.strictObject({});
  const omit = new Set([...pathFields(b).map((p) => p.field), ...Object.keys(b.fixed ?? {}), ...Object.keys(b.fromHeaders ?? {}), ...Object.keys(b.fromCookies ?? {})]);
  return z.strictObject(Object.fromEntries(Object.entries(op.input).filter(([k]) => !omit.has(k)).map(([k, s]) => [b.rename?.[k] ?? k, s])));
}

function base(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault) s = s.unwrap() as z.ZodType;
  return s;
}

/** A query string's values as the schema's types: numbers and booleans are written as text in a URL. */
function fromQuery(fields: z.ZodObject, query: Request["query"]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    const s = fields.shape[k] ? base(fields.shape[k] as z.ZodType) : undefined;
    if (typeof v === "string" && s instanceof z.ZodNumber && /^-?\d+(\.\d+)?$/.test(v)) out[k] = Number(v);
    else if (typeof v === "string" && s instanceof z.ZodBoolean && (v === "true" || v === "false")) out[k] = v === "true";
    else out[k] = v;
  }
  return out;
}

/** The route's input: the query or body fields under their input names, path parameters, headers, fixed fields. */
function inputOf(b: HttpBinding, params: ReadonlyArray<{ wire: string; field: string }>, sent: Record<string, unknown>, req: Request): Record<string, unknown> {
  const input: Record<string, unknown> = { ...sent };
  for (const [field, wire] of Object.entries(b.rename ?? {})) {
    if (!(wire in sent)) continue;
    input[field] = sent[wire];
    delete input[wire];
  }
  for (const p of params) input[p.field] = req.params[p.wire];
  for (const [field, header] of Object.entries(b.fromHeaders ?? {})) if (req.headers[header] !== undefined) input[field] = req.headers[header];
  for (const [field, cookie] of Object.entries(b.fromCookies ?? {})) {
    const v = readCookie(req, cookie);
    if (v !== undefined) input[field] = v;
  }
  return { ...input, ...b.fixed };
}

/** The HTTP answer of a JSON operation: its status, its `toHeaders` fields as headers, its cookie, the rest as the body. */
function reply(ctx: AppContext, res: Response, op: Operation, b: HttpBinding, out: unknown): void {
  let status = b.status ?? (op.output === null ? 204 : 200);
  let body = out;
  if (out instanceof WithStatus) [status, body] = [out.status, out.body];
  if (res.writableEnded) return; // the client went away while the operation waited
  if (b.clearCookie) res.clearCookie(b.clearCookie, cookieOptions(ctx));
  if (op.output === null) {
    res.status(status).end();
    return;
  }
  if (body && typeof body === "object") {
    const rest: Record<string, unknown> = { ...body };
    for (const [field, header] of Object.entries(b.toHeaders ?? {})) {
      if (rest[field] !== undefined) res.setHeader(header, String(rest[field]));
      delete rest[field];
    }
    if (b.setCookie) {
      const { name, value, expires } = b.setCookie;
      res.cookie(name, String(rest[value]), { ...cookieOptions(ctx), expires: new Date(String(rest[expires])) });
      delete rest[value];
    }
    body = rest;
  }
  res.status(status).json(body);
}

/** The sign-in cookie's attributes: HttpOnly, SameSite=Strict, path /, Secure per COOKIE_SECURE. */
function cookieOptions(ctx: AppContext) {
  return { httpOnly: true, sameSite: "strict" as const, secure: ctx.config.COOKIE_SECURE, path: "/" };
}

/** Where a route's `repo` comes from: its path, the binding's fixed fields, else its query or JSON body. */
function routeRepoOf(op: Operation, b: HttpBinding): ((req: Request) => RepoAsk | undefined) | undefined {
  if (!op.level) return undefined;
  return (req) => {
    const sent = b.raw ? undefined : b.method === "get" ? req.query : (req.body as Record<string, unknown> | undefined);
    return repoAskOf(op, req.params.repo ?? b.fixed?.repo ?? sent?.[b.rename?.repo ?? "repo"]);
  };
}

/** The guard in front of a route, by the operation's auth kind. */
function guardOf(ctx: AppContext, op: Operation, b: HttpBinding): RequestHandler[] {
  switch (authOf(op)) {
    case "execution":
      return [requireExecution(ctx, routeRepoOf(op, b))];
    case "credential":
      return [requireActor(ctx)];
    case "platform_admin":
      return [requireActor(ctx), requirePlatformAdmin()];
    case "local_admin":
      return [requireLocalAdmin(ctx)];
    case "none":
      return [];
  }
}

/** The call of an operation that runs without an execution session, by its auth kind (ops/operation.ts CallOf). */
function controlCall(ctx: AppContext, op: Operation, req: Request, signal: AbortSignal): object {
  const base = { services: ctx, signal, clientIp: clientIp(req) };
  switch (authOf(op)) {
    case "credential":
    case "platform_admin": {
      const actor = actorOf(req);
      return { ...base, actor, principal: principalOf(actor) };
    }
    case "local_admin":
      return { ...base, actor: req.actor, via: req.actor ? "credential" : "local_admin_token" };
    default:
      return base;
  }
}

/** Runs an operation that needs no execution session (control plane, operators): no repository. */
async function runControl(ctx: AppContext, op: Operation, input: Record<string, unknown>, req: Request, res: Response): Promise<unknown> {
  const abort = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  const out = await op.run(controlCall(ctx, op, req, abort.signal) as never, input as never);
  return conformAnswer(op, out, ctx);
}

/** The catalog's removed routes (ops/catalog.ts REMOVED_ROUTES): 410 `gone`, with what replaced each. */
export function removedRoutes(): Router {
  const r = Router();
  for (const gone of REMOVED_ROUTES) r[gone.method](gone.path, (_req, _res, next) => next(new AppError("gone", { message: gone.message })));
  return r;
}

export function operationRoutes(ctx: AppContext, catalog: readonly Operation[] = CATALOG): Router {
  const r = Router();
  for (const op of catalog) {
    const schema = inputSchemaOf(op);
    for (const b of op.http ?? []) {
      const fields = clientFields(op, b);
      const params = pathFields(b);
      const raw = b.raw ? RAW_BODIES[b.raw] : undefined;
      // A raw body is refused for its type (or the route being off) before the repository check and before it is read.
      const gate: RequestHandler[] = raw
        ? [
            (req, _res, next) => {
              checkRaw(raw, ctx.config, req);
              next();
            },
          ]
        : [];
      r[b.method](
        b.path,
        ...guardOf(ctx, op, b),
        ...gate,
        route(async (req, res) => {
          // No body is {}; a JSON `null` body is a body of the wrong type, refused by the schema.
          const sent = raw ? {} : b.method === "get" ? fromQuery(fields, req.query) : req.body === undefined ? {} : req.body;
          if (sent === null) parseWith(fields, [], "(body)");
          parseWith(fields, sent, b.method === "get" ? "(query)" : "(body)");
          const input = parseWith(schema, inputOf(b, params, sent as Record<string, unknown>, req)) as Record<string, unknown>;
          if (authOf(op) !== "execution") {
            reply(ctx, res, op, b, await runControl(ctx, op, input, req, res));
            return;
          }
          const ex = executionOf(req);
          // A stream ends when its response does (api/sse.ts), not only when the client goes away.
          const ended = b.stream ? new AbortController() : undefined;
          const who: ResolvedCaller = {
            identity: ex.identity,
            expiresAt: ex.expiresAt,
            principal: principalOf(ex.actor),
            repo: ex.repo,
            read: ex.read,
            signal: ended ? AbortSignal.any([ex.context.signal, ended.signal]) : ex.context.signal,
            body: raw ? rawReader(raw, ctx.config, req, res) : undefined,
          };
          const out = await runOperation(op, input, who, ctx);
          if (!ended) reply(ctx, res, op, b, out);
          else if (out === null) res.status(204).end();
          else await sendEvents(res, checkedEvents(ctx, op, b, out as EventStream), ended);
        }),
      );
    }
  }
  return r;
}

/** A stream whose every event's data passes the binding's schema for its type (api/output-check.ts). */
function checkedEvents(ctx: AppContext, op: Operation, b: HttpBinding, stream: EventStream): EventStream {
  const schemas = b.events ?? {};
  const check = outputCheckOf(ctx);
  async function* events() {
    for await (const e of stream.events) {
      const schema = schemas[e.event];
      if (!schema) throw new AppError("internal", { cause: new Error(`${op.name}: an event type the binding does not declare`) });
      yield { ...e, data: conformOutput(`${op.name}:${e.event}`, schema, e.data, check) };
    }
  }
  return { ...stream, events: events() };
}
