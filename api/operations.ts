/**
 * The REST mounter: every HTTP binding of every catalog operation
 * (ops/catalog.ts) becomes one route behind the execution boundary
 * (requireExecution). The route's input is its path parameters, its query
 * (GET) or JSON body (otherwise) and the binding's fixed fields, validated by
 * the operation's own schema (strict: a field the route does not take is
 * refused); the repository permission the operation declares is checked
 * before `run`. The MCP mounter (api/mcp/tools/operations.ts) does the same
 * from tool arguments.
 */
import { Router, type Request } from "express";
import { z } from "zod";
import { authorize, type Principal, type RepoAccess } from "../core/authorize";
import { AppError } from "../core/errors";
import type { Identity } from "../core/execution/identity";
import type { HttpBinding, Operation, OpServices } from "../ops/operation";
import { CATALOG } from "../ops/catalog";
import type { AppContext } from "./context";
import { executionOf, principalOf, requireExecution, type RepoAsk, type ResolvedRepo } from "./execution";
import { parseWith, route } from "./http";

/** The names of a path's `:params`. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
}

/** The fields a route reads from its query or body: the input minus path parameters and fixed fields. */
export function clientFields(op: Operation, path: string, fixed: Record<string, unknown> = {}): z.ZodObject {
  const omit = new Set([...pathParams(path), ...Object.keys(fixed)]);
  return z.strictObject(Object.fromEntries(Object.entries(op.input).filter(([k]) => !omit.has(k))));
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

/** Who the boundary resolved for one call: its identity and binding deadline, its principal, its AbortSignal, the repository it named. */
export interface ResolvedCaller {
  identity: Identity;
  expiresAt: Date;
  principal: Principal;
  signal: AbortSignal;
  repo?: ResolvedRepo | undefined;
}

/**
 * The repository an operation would run on, from its raw input, when it declares a level and the
 * value passes its own schema (anything else is left to validation, which refuses it first).
 */
export function repoAskOf(op: Operation, raw: unknown): RepoAsk | undefined {
  const schema = op.input.repo as z.ZodType | undefined;
  if (!op.level || !schema || typeof raw !== "string" || !schema.safeParse(raw).success) return undefined;
  return { ref: raw, level: op.level };
}

/**
 * Runs an operation for a resolved caller. The repository permission it declares was resolved
 * with the identity by the caller's own statement when the boundary was asked for exactly this
 * repository and level (every REST route, an MCP call whose request named it); otherwise one
 * authorize() reads identity and repository together again. Both mounters call it.
 */
export async function runOperation(op: Operation, input: Record<string, unknown>, who: ResolvedCaller, services: OpServices): Promise<unknown> {
  let repo: RepoAccess | undefined;
  if (op.level) {
    const ask = { ref: String(input.repo), level: op.level };
    const held = who.repo && who.repo.ask.ref === ask.ref && who.repo.ask.level === ask.level ? who.repo.answer : undefined;
    if (held instanceof AppError) throw held;
    repo = held ?? (await authorize(services.db, services.clock, who.principal, who.identity.session_id, { repo: ask })).repo;
  }
  const auth = { identity: who.identity, expiresAt: who.expiresAt, ...(repo ? { repo } : {}) };
  return op.run({ auth, repo, principal: who.principal, services, signal: who.signal }, input as never);
}

/** Where a route's `repo` comes from: its path, the binding's fixed fields, else its query or body. */
function routeRepoOf(op: Operation, b: HttpBinding): ((req: Request) => RepoAsk | undefined) | undefined {
  if (!op.level) return undefined;
  return (req) => {
    const raw: unknown = req.params.repo ?? b.fixed?.repo ?? (b.method === "get" ? req.query.repo : (req.body as Record<string, unknown> | undefined)?.repo);
    return repoAskOf(op, raw);
  };
}

export function operationRoutes(ctx: AppContext, catalog: readonly Operation[] = CATALOG): Router {
  const r = Router();
  for (const op of catalog) {
    const schema = z.strictObject(op.input);
    for (const b of op.http ?? []) {
      const fields = clientFields(op, b.path, b.fixed);
      r[b.method](
        b.path,
        requireExecution(ctx, routeRepoOf(op, b)),
        route(async (req, res) => {
          const sent = b.method === "get" ? fromQuery(fields, req.query) : (req.body ?? {});
          parseWith(fields, sent, b.method === "get" ? "(query)" : "(body)");
          const params = Object.fromEntries(pathParams(b.path).map((p) => [p, req.params[p]]));
          const input = parseWith(schema, { ...(sent as object), ...params, ...b.fixed });
          const ex = executionOf(req);
          const who = { identity: ex.identity, expiresAt: ex.expiresAt, principal: principalOf(ex.actor), signal: ex.context.signal, repo: ex.repo };
          const out = await runOperation(op, input, who, ctx);
          if (op.output === null) res.status(b.status ?? 204).end();
          else res.status(b.status ?? 200).json(out);
        }),
      );
    }
  }
  return r;
}
