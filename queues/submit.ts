/**
 * submitJob: what a submission route (HTTP or MCP) calls. It checks the kind
 * and its parameters, runs the same authorize() as the API boundary (with the
 * kind's repository permission), writes one job row carrying the identity and
 * the principal's ids — never a credential — and dispatches its id.
 *
 * With `tx`, the row is written in the caller's transaction and not dispatched
 * here (the caller has not committed yet): the PostgreSQL wake-up fires on
 * commit, and the reconciler hands it to BullMQ on its next pass. Without
 * `tx`, the insert commits on its own and the dispatcher wakes the pools after
 * that commit (BullMQ message, or one coalesced NOTIFY per pool).
 */
import { authorize, type Principal } from "../core/authorize";
import type { Clock } from "../core/clock";
import { AppError } from "../core/errors";
import { sameIdentity, type Identity } from "../core/execution/identity";
import type { Logger } from "../core/log";
import type { Db, Tx } from "../db/schema";
import type { Dispatcher } from "./dispatch/dispatcher";
import type { JobKind, JobRow } from "./jobs";
import type { JobRegistry } from "./registry";
import { enqueueJob } from "./sql/enqueueJob";

export interface JobQueue {
  db: Db;
  clock: Clock;
  registry: JobRegistry;
  dispatcher: Dispatcher;
  logger?: Logger;
}

export interface SubmitInput {
  kind: string;
  params: unknown;
  /** Repository id or name within the organisation (RUN-7); required when the kind needs a repository level. */
  repo?: string;
}

export async function submitJob(
  q: JobQueue,
  identity: Identity,
  principal: Principal,
  input: SubmitInput,
  opts: { tx?: Tx } = {},
): Promise<JobRow> {
  const def: JobKind | undefined = q.registry.get(input.kind);
  if (!def || def.system) throw new AppError("validation_failed", { message: "Unknown job kind.", details: { field: "kind" } });
  const parsed = def.params.safeParse(input.params ?? {});
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join(".") || "(params)"))].slice(0, 20);
    throw new AppError("validation_failed", { message: `The job parameters are not valid: ${fields.join(", ")}.`, details: { field: "params" } });
  }
  if (def.repoLevel && !input.repo) throw new AppError("validation_failed", { message: "This job needs a repository.", details: { field: "repo" } });
  const db = opts.tx ?? q.db;
  const auth = await authorize(db, q.clock, principal, identity.session_id, def.repoLevel && input.repo ? { repo: { ref: input.repo, level: def.repoLevel } } : {});
  if (!sameIdentity(auth.identity, identity)) throw new AppError("invalid_identity");
  const now = q.clock.now();
  const row = await enqueueJob(db, now, {
    kind: def.kind,
    pool: def.pool,
    params: parsed.data,
    repoId: auth.repo?.repoId ?? null,
    restartable: def.restartable,
    maxAttempts: def.maxAttempts,
    identity: auth.identity,
    actor: { userId: principal.userId, apiKeyId: principal.apiKeyId, loginSessionId: principal.loginSessionId },
    dispatched: !opts.tx,
  }, { notify: !!opts.tx });
  if (!row) throw new AppError("conflict");
  if (!opts.tx) {
    try {
      await q.dispatcher.dispatch([row], now);
    } catch (err) {
      // The row is durable; the reconciler dispatches it again.
      q.logger?.warn({ code: "dispatch_failed", pool: row.pool, kind: row.kind, err: (err as Error).message }, "dispatch failed; reconciler will retry");
    }
  }
  return row;
}
