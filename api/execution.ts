/**
 * The HTTP execution boundary (HTTP-1..HTTP-3).
 *
 * requireExecution(): authenticate → read both session headers (equal, valid)
 * → authorize() the binding → freeze the identity onto the request (a
 * read-only, non-configurable property) and run the rest of the request inside
 * that execution context (AsyncLocalStorage), with an AbortSignal that fires
 * when the client goes away.
 *
 * A browser request that sends neither header is bound to its dashboard
 * session (registered on first use). A request that sends a header must name a
 * registered session: the dashboard binding is never a fallback, and a `web:`
 * (dashboard) ID can never be named, by any credential.
 */
import type { Request, RequestHandler } from "express";
import { authenticate, authenticateFor, type Actor } from "../core/auth/authenticate";
import { authorize, authorizeAsking, type Authorized, type EarlierRead, type Principal, type RepoAccess } from "../core/authorize";
import { AppError } from "../core/errors";
import { identityRefusal } from "../core/errors-identity";
import { ExecutionContext, runInExecution } from "../core/execution/context";
import { isValidId, type Identity } from "../core/execution/identity";
import { metaSession, oneSession } from "../core/execution/session-sources";
import { dashboardSessionId, isDashboardId, refuseNamedDashboard, registerSession } from "../core/registry/registry";
import type { RepoLevel } from "../db/schema";
import type { AppContext } from "./context";
import { credentialsOf } from "./http";

export const SESSION_HEADER = "x-codesynapse-session";
export const PARENT_HEADER = "x-codesynapse-parent-session";

export interface Execution {
  readonly identity: Identity;
  readonly actor: Actor;
  readonly expiresAt: Date;
  readonly context: ExecutionContext;
  /** The repository the request named (RepoAsk), resolved with the identity by the same statement. */
  readonly repo?: ResolvedRepo;
  /** That statement's read, for the operation's own checks while it is fresh (core/authorize.ts, an earlier read). */
  readonly read?: EarlierRead;
}

/** A repository a request names and the level its operation needs: resolved with the identity, in one statement. */
export interface RepoAsk {
  ref: string;
  level: RepoLevel;
}

/** What was asked and its answer (the access, or the refusal): a later step uses it only for the same ask. */
export interface ResolvedRepo {
  ask: RepoAsk;
  answer: RepoAccess | AppError;
}

/** What a request resolves to: who, as which identity, until when, and the repository it named. */
export interface ResolvedExecution {
  actor: Actor;
  identity: Identity;
  expiresAt: Date;
  repo?: ResolvedRepo;
  read?: EarlierRead;
}

declare module "express-serve-static-core" {
  interface Request {
    readonly execution?: Execution;
  }
}

export function principalOf(actor: Actor): Principal {
  return { orgId: actor.orgId, userId: actor.userId, apiKeyId: actor.apiKeyId, loginSessionId: actor.loginSessionId, role: actor.role };
}

function header(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === "string" ? v : undefined;
}

/** The primary session the execution headers name, or null. Throws on malformed or mismatched headers. */
function headerSession(req: Request): string | null {
  const session = header(req, SESSION_HEADER);
  const parent = header(req, PARENT_HEADER);
  if (session === undefined && parent === undefined) return null;
  // Each cause its own message, naming the header; never the value sent.
  if (parent === undefined) throw identityRefusal("session_header_alone");
  if (session === undefined) throw identityRefusal("parent_header_alone");
  if (!isValidId(session)) throw identityRefusal("session_header_malformed");
  if (!isValidId(parent)) throw identityRefusal("parent_header_malformed");
  if (session !== parent) throw identityRefusal("session_headers_differ");
  return session;
}

/**
 * The primary session a request names, or null for "none named": its execution headers and, on
 * /mcp, the runtime keys of its JSON-RPC messages' `_meta` (`mcp`: the body's messages). Every
 * source that names one must name the same one (core/execution/session-sources.ts): two different
 * threads are `session_source_conflict`, never settled by precedence.
 */
export function namedSession(req: Request, mcp: readonly unknown[] = []): string | null {
  return oneSession([headerSession(req), metaSession(mcp)]);
}

/**
 * Resolves the execution of a request: used by the middleware and by the MCP endpoint. With
 * `repo`, the repository permission is read and decided by the same statement as the identity
 * (one refusal order: … binding, then repository). `mcp`: the JSON-RPC messages of an /mcp
 * request, whose `_meta` may name the thread too (namedSession).
 */
export async function resolveExecution(ctx: AppContext, req: Request, repo?: RepoAsk, mcp: readonly unknown[] = []): Promise<ResolvedExecution> {
  const creds = credentialsOf(req);
  if (creds.bearer === undefined && creds.cookieToken === undefined) throw new AppError("unauthenticated");
  const named = namedSession(req, mcp);
  if (named !== null && isDashboardId(named)) {
    // HTTP-3: the dashboard binding is implicit only; naming one is refused for every credential (audited).
    const actor = await authenticate(ctx.identity, ctx.clock, creds);
    return refuseNamedDashboard(ctx.identity, ctx.clock, principalOf(actor), named, "headers");
  }
  if (named !== null) {
    // One statement reads the credential, the account, the binding and the repository (core/authorize.ts).
    const r = await authenticateFor(ctx.identity, ctx.clock, creds, named, repo);
    return { ...withAnswer({ actor: r.actor, ...r.authorized }, repo, r.repoAnswer), ...(r.read ? { read: r.read } : {}) };
  }
  const actor = await authenticate(ctx.identity, ctx.clock, creds);
  const principal = principalOf(actor);
  if (actor.kind !== "browser" || !actor.loginTokenHash) throw identityRefusal("session_not_named");
  // The dashboard binding: registered on first use in each 7-day window.
  const dashboard = dashboardSessionId(actor.loginTokenHash, actor.orgId, ctx.clock.now());
  const bind = async (): Promise<ResolvedExecution> => {
    if (!repo) return withAnswer({ actor, ...(await authorize(ctx.identity, ctx.clock, principal, dashboard)) }, undefined, undefined);
    const r = await authorizeAsking(ctx.identity, ctx.clock, principal, dashboard, repo);
    return withAnswer({ actor, ...r.authorized }, repo, r.repoAnswer);
  };
  try {
    return await bind();
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== "session_not_found") throw err;
  }
  await registerSession(ctx.identity, ctx.clock, principal, dashboard, { kind: "dashboard" });
  return bind();
}

function withAnswer(r: { actor: Actor } & Authorized, ask: RepoAsk | undefined, answer: RepoAccess | AppError | undefined): ResolvedExecution {
  const out: ResolvedExecution = { actor: r.actor, identity: r.identity, expiresAt: r.expiresAt };
  if (ask && answer) out.repo = { ask, answer };
  return out;
}

export function requireExecution(ctx: AppContext, repoOf?: (req: Request) => RepoAsk | undefined): RequestHandler {
  return (req, res, next) => {
    Promise.resolve()
      .then(() => resolveExecution(ctx, req, repoOf?.(req)))
      .then(({ actor, identity, expiresAt, repo, read }) => {
        const abort = new AbortController();
        res.once("close", () => {
          if (!res.writableFinished) abort.abort();
        });
        const context = new ExecutionContext({ identity, signal: abort.signal });
        const execution: Execution = Object.freeze({ identity, actor, expiresAt, context, ...(repo ? { repo } : {}), ...(read ? { read } : {}) });
        Object.defineProperty(req, "actor", { value: actor, writable: false, configurable: false, enumerable: true });
        Object.defineProperty(req, "execution", { value: execution, writable: false, configurable: false, enumerable: true });
        runInExecution(context, () => next());
      })
      .catch(next);
  };
}

export function executionOf(req: Request): Execution {
  if (!req.execution) throw new AppError("unauthenticated", { message: "No execution identity is bound." });
  return req.execution;
}
