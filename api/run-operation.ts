/**
 * Running one operation, for every mounter: REST (api/operations.ts), MCP (api/mcp/tools/) and the
 * job tasks' cancel (api/mcp/tasks.ts). `runOperation` takes a caller the boundary already
 * resolved, checks the repository permission the operation declares (from what the boundary
 * resolved with the identity when it can), runs it, and passes the answer through the operation's
 * output schema (api/output-check.ts) — once, whichever mounter sends it.
 */
import type { z } from "zod";
import { authorize, type EarlierRead, type Principal, type RepoAccess } from "../core/authorize";
import { AppError } from "../core/errors";
import type { Identity } from "../core/execution/identity";
import { WithStatus, type EventStream, type Operation, type OpServices } from "../ops/operation";
import type { AppContext } from "./context";
import type { RepoAsk, ResolvedRepo } from "./execution";
import { conformOutput, type OutputCheck } from "./output-check";

/** How answers are checked against their output schemas in this app (api/output-check.ts). */
export function outputCheckOf(ctx: OpServices & Pick<AppContext, "jobMetrics">): OutputCheck {
  return { mode: ctx.config.OUTPUT_SCHEMA_MISMATCH, logger: ctx.logger, registry: ctx.jobMetrics?.registry };
}

/**
 * A JSON answer as it may leave (api/output-check.ts): through the operation's output schema,
 * whichever mounter sends it. Streams are checked per event by the REST mounter; null is "no body".
 */
export function conformAnswer(op: Operation, out: unknown, services: OpServices): unknown {
  if (op.output === null || out === null || out === undefined || isEventStream(out)) return out;
  const check = outputCheckOf(services);
  if (out instanceof WithStatus) return new WithStatus(out.status, conformOutput(op.name, op.output, out.body, check));
  return conformOutput(op.name, op.output, out, check);
}

function isEventStream(out: unknown): out is EventStream {
  return typeof out === "object" && out !== null && "events" in out && "heartbeatMs" in out;
}

/** Who the boundary resolved for one call: its identity and binding deadline, its principal, its AbortSignal, the repository it named. */
export interface ResolvedCaller {
  identity: Identity;
  expiresAt: Date;
  principal: Principal;
  signal: AbortSignal;
  /** The repository the boundary resolved with the identity (RepoAsk), for exactly what it asked. */
  repo?: ResolvedRepo | undefined;
  /** A raw-body route's reader (HttpBinding.raw). */
  body?: (() => Promise<Buffer | undefined>) | undefined;
  /** The boundary's authorization read (core/authorize.ts, an earlier read): the operation's checks use it while fresh. */
  read?: EarlierRead | undefined;
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
 * repository and level (every REST route, an MCP request with one tool call); otherwise one
 * authorize() reads identity and repository together again. A refusal the boundary kept is
 * raised here, after the input was validated. Both mounters call it.
 */
export async function runOperation(op: Operation, input: Record<string, unknown>, who: ResolvedCaller, services: OpServices): Promise<unknown> {
  let repo: RepoAccess | undefined;
  if (op.level) {
    const ask = { ref: String(input.repo), level: op.level };
    const held = who.repo && who.repo.ask.ref === ask.ref && who.repo.ask.level === ask.level ? who.repo.answer : undefined;
    if (held instanceof AppError) throw held;
    repo = held ?? (await authorize(services.identity, services.clock, who.principal, who.identity.session_id, { repo: ask, earlier: who.read })).repo;
  }
  const auth = { identity: who.identity, expiresAt: who.expiresAt, ...(repo ? { repo } : {}) };
  const out = await op.run({ auth, repo, principal: who.principal, services, signal: who.signal, body: who.body, read: who.read }, input as never);
  return conformAnswer(op, out, services);
}
