/**
 * PostgreSQL SessionMemoryStore (kysely): the embedded default on PGlite and
 * the production default on PostgreSQL. Every write runs in one transaction
 * that first locks the tenant's row in `session_memory_tenants` (FOR UPDATE),
 * so revision and quota checks of concurrent writers of one tenant are serial;
 * then it applies the same checks as every adapter (core/memory/quotas.ts,
 * core/memory/snapshot.ts) and writes only the difference to the stored
 * snapshot. Any refusal rolls the whole transaction back: nothing half-written.
 * Query text is constant; values travel as parameters.
 */
import { chunks } from "../../../core/chunks";
import { sql } from "kysely";
import { AppError } from "../../../core/errors";
import { checkLoad, checkRoot, enforceQuotas, type RootState } from "../../../core/memory/quotas";
import { storedFactCount } from "../../../core/memory/history";
import { checkSnapshot } from "../../../core/memory/snapshot";
import type { SessionMemoryStore } from "../../../core/memory/store";
import type { CommitInput, CommitResult, PurgeResult, ScopeKey, ScopeOwner, ScopeSnapshot, SessionEntity, SessionFact } from "../../../core/memory/types";
import { scopeKeyOf } from "../../../core/memory/types";
import { inTransaction } from "../../../core/transaction";
import { PREPARE } from "../../../core/prepare";
import type { Db, Tx } from "../../schema";

const CHUNK = 500;


function scopeWhere<Q extends { where: (...a: any[]) => Q }>(q: Q, key: ScopeKey): Q {
  return q.where("tenant_id", "=", key.tenant_id).where("session_id", "=", key.session_id).where("ns", "=", key.ns);
}

async function lockTenant(tx: Tx, tenantId: string): Promise<void> {
  const lock = () => tx.selectFrom("session_memory_tenants").select("tenant_id").where("tenant_id", "=", tenantId).forUpdate().modifyEnd(PREPARE).execute();
  // The tenant's row exists after its first commit: one statement then. Two first commits both
  // insert (one does nothing) and then queue on the same row lock.
  if ((await lock()).length > 0) return;
  await tx.insertInto("session_memory_tenants").values({ tenant_id: tenantId }).onConflict((oc) => oc.column("tenant_id").doNothing()).modifyEnd(PREPARE).execute();
  await lock();
}

async function isRevoked(tx: Tx, tenantId: string, sessionId: string): Promise<boolean> {
  const r = await tx.selectFrom("session_memory_revocations").select("tenant_id").where("tenant_id", "=", tenantId).where("session_id", "=", sessionId).modifyEnd(PREPARE).executeTakeFirst();
  return r !== undefined;
}

async function otherSubject(tx: Tx, owner: ScopeOwner): Promise<boolean> {
  const r = await tx
    .selectFrom("session_memory_scopes")
    .select("subject_id")
    .where("tenant_id", "=", owner.tenant_id)
    .where("session_id", "=", owner.session_id)
    .where("subject_id", "<>", owner.subject_id)
    .limit(1)
    .modifyEnd(PREPARE)
    .executeTakeFirst();
  return r !== undefined;
}

async function readRoot(tx: Tx, key: ScopeKey): Promise<(RootState & { doc: Record<string, unknown> }) | null> {
  const r = await scopeWhere(tx.selectFrom("session_memory_scopes").select(["subject_id", "revision", "expires_at", "deleted_at", "doc"]), key).modifyEnd(PREPARE).executeTakeFirst();
  if (!r) return null;
  return { subject_id: r.subject_id, revision: r.revision, expires_at: r.expires_at.getTime(), deleted: r.deleted_at !== null, doc: r.doc };
}

/** Removes a namespace's entities and facts (expiry on access, clear). */
async function dropContent(tx: Tx, key: ScopeKey): Promise<void> {
  await scopeWhere(tx.deleteFrom("session_memory_facts"), key).execute();
  await scopeWhere(tx.deleteFrom("session_memory_entities"), key).execute();
  await scopeWhere(tx.updateTable("session_memory_scopes").set({ fact_count: 0, entity_count: 0, size_bytes: 0, doc: "{}" }), key).execute();
}

async function countWhere(tx: Tx, tenantId: string, sessionId: string | null): Promise<number> {
  let q = tx.selectFrom("session_memory_scopes").select((eb) => eb.fn.countAll<string | number>().as("n")).where("tenant_id", "=", tenantId);
  if (sessionId !== null) q = q.where("session_id", "=", sessionId);
  return Number((await q.modifyEnd(PREPARE).executeTakeFirstOrThrow()).n);
}

/** What load() and a commit both read first: revocation, another subject on the session, the root. */
interface AccessRow {
  revoked: boolean;
  other_subject: boolean;
  subject_id: string | null;
  revision: number | null;
  expires_at: Date | string | null;
  deleted_at: Date | string | null;
}

/** AccessRow's columns (the root as `s`); the statement ends with accessFrom(key). */
function accessColumns(owner: ScopeOwner, key: ScopeKey) {
  return sql`exists (select 1 from session_memory_revocations v where v.tenant_id = ${key.tenant_id} and v.session_id = ${key.session_id}) as revoked,
      exists (select 1 from session_memory_scopes o where o.tenant_id = ${key.tenant_id} and o.session_id = ${key.session_id}
              and o.subject_id <> ${owner.subject_id}) as other_subject,
      s.subject_id, s.revision, s.expires_at, s.deleted_at`;
}

function accessFrom(key: ScopeKey) {
  return sql`from (select 1) as one
    left join session_memory_scopes s on s.tenant_id = ${key.tenant_id} and s.session_id = ${key.session_id} and s.ns = ${key.ns}`;
}

/** The root an AccessRow read, or null when the namespace has none. */
function rootOf(row: AccessRow): RootState | null {
  if (row.subject_id === null || row.revision === null || row.expires_at === null) return null;
  return { subject_id: row.subject_id, revision: Number(row.revision), expires_at: asDate(row.expires_at).getTime(), deleted: row.deleted_at !== null };
}

interface CommitChecksRow extends AccessRow {
  session_roots: string | number;
  tenant_roots: string | number;
  session_live_elsewhere: string | number;
  tenant_live_elsewhere: string | number;
}

/**
 * What a commit checks, read by ONE statement under the tenant's lock: revocation, another
 * subject on the session, the root, and the quota counts (live facts in the tenant's and the
 * session's other namespaces, revoked sessions not counted) — the checks clear() makes one by one.
 * A commit is the hot write of a runtime's loop: one round trip here instead of seven.
 */
async function readCommitChecks(tx: Tx, owner: ScopeOwner, key: ScopeKey, now: Date) {
  const live = (sessionOnly: boolean) => sql`(select coalesce(sum(x.fact_count), 0) from session_memory_scopes x
      where x.tenant_id = ${key.tenant_id} and x.deleted_at is null and x.expires_at > ${now}
        and not (x.session_id = ${key.session_id} and x.ns = ${key.ns})
        and not exists (select 1 from session_memory_revocations r where r.tenant_id = x.tenant_id and r.session_id = x.session_id)
        ${sessionOnly ? sql`and x.session_id = ${key.session_id}` : sql``})`;
  const r = await sql<CommitChecksRow>`${PREPARE}
    select
      ${accessColumns(owner, key)},
      (select count(*) from session_memory_scopes c where c.tenant_id = ${key.tenant_id} and c.session_id = ${key.session_id}) as session_roots,
      (select count(*) from session_memory_scopes c where c.tenant_id = ${key.tenant_id}) as tenant_roots,
      ${live(true)} as session_live_elsewhere,
      ${live(false)} as tenant_live_elsewhere
    ${accessFrom(key)}`.execute(tx);
  const row = r.rows[0];
  if (!row) throw new AppError("internal");
  return {
    root: rootOf(row),
    revoked: Boolean(row.revoked),
    otherSubject: Boolean(row.other_subject),
    sessionRoots: Number(row.session_roots),
    tenantRoots: Number(row.tenant_roots),
    sessionLiveFactsElsewhere: Number(row.session_live_elsewhere),
    tenantLiveFactsElsewhere: Number(row.tenant_live_elsewhere),
  };
}

interface LoadRow extends AccessRow {
  doc: unknown;
  entities: unknown;
  facts: unknown;
}

function asJson<T>(v: unknown): T {
  return (typeof v === "string" ? JSON.parse(v) : v) as T;
}

function asDate(v: Date | string): Date {
  return v instanceof Date ? v : new Date(v);
}

export class PostgresSessionStore implements SessionMemoryStore {
  readonly kind = "postgres";
  constructor(private readonly db: Db) {}

  /**
   * One statement (so one consistent MVCC snapshot, no explicit transaction):
   * revocation, another subject on the session, the root, and the scope's
   * entities and facts aggregated as JSON. The refusals are then applied in the
   * same order as before; only an expired namespace needs a second round trip
   * (to remove its contents).
   */
  async load(owner: ScopeOwner, now: number): Promise<ScopeSnapshot | null> {
    const key = scopeKeyOf(owner);
    const r = await sql<LoadRow>`${PREPARE}
      select
        ${accessColumns(owner, key)}, s.doc,
        (select coalesce(json_agg(json_build_array(e.id, e.name, e.type, e.doc) order by e.id), '[]'::json)
           from session_memory_entities e
          where e.tenant_id = ${key.tenant_id} and e.session_id = ${key.session_id} and e.ns = ${key.ns}) as entities,
        (select coalesce(json_agg(json_build_array(f.fact_id, f.subject_id, f.predicate, f.object_id, f.doc) order by f.fact_id), '[]'::json)
           from session_memory_facts f
          where f.tenant_id = ${key.tenant_id} and f.session_id = ${key.session_id} and f.ns = ${key.ns}) as facts
      ${accessFrom(key)}`.execute(this.db);
    const row = r.rows[0];
    if (!row) throw new AppError("internal");
    const root = rootOf(row);
    const state = checkLoad(root ? { deleted: root.deleted, expires_at: root.expires_at } : null, { revoked: Boolean(row.revoked), otherSubject: Boolean(row.other_subject), now });
    if (state === "absent" || !root) return null;
    if (state === "expired") {
      await inTransaction(this.db, (tx) => dropContent(tx, key));
      throw new AppError("session_expired");
    }
    const entities = asJson<Array<[string, string, string, SessionEntity["doc"]]>>(row.entities);
    const facts = asJson<Array<[string, string, string, string, SessionFact["doc"]]>>(row.facts);
    return {
      key,
      subject_id: root.subject_id,
      revision: root.revision,
      expires_at: root.expires_at,
      doc: asJson<Record<string, unknown>>(row.doc ?? {}),
      entities: entities.map(([id, name, type, doc]) => ({ id, name, type, doc })),
      facts: facts.map(([fact_id, subject_id, predicate, object_id, doc]) => ({ fact_id, subject_id, predicate, object_id, doc })),
    };
  }

  async commit(input: CommitInput): Promise<CommitResult> {
    const { owner } = input;
    const key = scopeKeyOf(owner);
    const now = new Date(input.now);
    const result = await inTransaction(this.db, async (tx): Promise<CommitResult | "expired"> => {
      await lockTenant(tx, owner.tenant_id);
      const checks = await readCommitChecks(tx, owner, key, now);
      const root = checks.root;
      const state = checkRoot(root, { subject_id: owner.subject_id, expectedRevision: input.expectedRevision, expiresAt: input.expiresAt }, {
        revoked: checks.revoked,
        otherSubject: checks.otherSubject,
        now: input.now,
      });
      if (state === "expired") {
        if (root) await dropContent(tx, key);
        return "expired";
      }
      const bytes = checkSnapshot(key, input.content);
      enforceQuotas({
        creatingRoot: root === null,
        sessionRoots: checks.sessionRoots,
        tenantRoots: checks.tenantRoots,
        sessionLiveFactsElsewhere: checks.sessionLiveFactsElsewhere,
        tenantLiveFactsElsewhere: checks.tenantLiveFactsElsewhere,
        factsAfter: storedFactCount(input.content),
      });
      const revision = (root?.revision ?? 0) + 1;
      // fact_count is what the quotas count: live facts plus history entries.
      const counts = { fact_count: storedFactCount(input.content), entity_count: input.content.entities.length, size_bytes: bytes };
      if (root) {
        await scopeWhere(tx.updateTable("session_memory_scopes").set({ revision, doc: JSON.stringify(input.content.doc), updated_at: now, ...counts }), key).modifyEnd(PREPARE).execute();
      } else {
        await tx
          .insertInto("session_memory_scopes")
          .values({ ...key, subject_id: owner.subject_id, doc: JSON.stringify(input.content.doc), revision, expires_at: new Date(input.expiresAt), deleted_at: null, ...counts })
          .execute();
      }
      await this.writeDiff(tx, key, new Date(input.expiresAt), input.content.entities, input.content.facts);
      return { revision };
    });
    if (result === "expired") throw new AppError("session_expired");
    return result;
  }

  /** Writes only what changed: removed facts, removed entities, then new/changed entities and facts. */
  private async writeDiff(tx: Tx, key: ScopeKey, expiresAt: Date, entities: SessionEntity[], facts: SessionFact[]): Promise<void> {
    // What is stored now, entities and facts, in one statement (as load() reads them).
    const stored = (
      await sql<{ entities: unknown; facts: unknown }>`${PREPARE}
        select
          (select coalesce(json_agg(json_build_array(e.id, e.name, e.doc)), '[]'::json)
             from session_memory_entities e
            where e.tenant_id = ${key.tenant_id} and e.session_id = ${key.session_id} and e.ns = ${key.ns}) as entities,
          (select coalesce(json_agg(json_build_array(f.fact_id, f.doc)), '[]'::json)
             from session_memory_facts f
            where f.tenant_id = ${key.tenant_id} and f.session_id = ${key.session_id} and f.ns = ${key.ns}) as facts`.execute(tx)
    ).rows[0];
    const oldEntities = new Map(asJson<Array<[string, string, unknown]>>(stored?.entities ?? "[]").map(([id, name, doc]) => [id, { name, doc }]));
    const oldFacts = new Map(asJson<Array<[string, unknown]>>(stored?.facts ?? "[]").map(([fact_id, doc]) => [fact_id, { doc }]));
    const newEntityIds = new Set(entities.map((e) => e.id));
    const newFactIds = new Set(facts.map((f) => f.fact_id));
    for (const ids of chunks([...oldFacts.keys()].filter((id) => !newFactIds.has(id)), CHUNK)) {
      await scopeWhere(tx.deleteFrom("session_memory_facts"), key).where("fact_id", "in", ids).execute();
    }
    for (const ids of chunks([...oldEntities.keys()].filter((id) => !newEntityIds.has(id)), CHUNK)) {
      await scopeWhere(tx.deleteFrom("session_memory_entities"), key).where("id", "in", ids).execute();
    }
    const entityRows = [];
    for (const e of entities) {
      const old = oldEntities.get(e.id);
      const doc = JSON.stringify(e.doc);
      if (!old) entityRows.push({ ...key, id: e.id, name: e.name, type: e.type, doc, expires_at: expiresAt });
      else if (old.name !== e.name || JSON.stringify(old.doc) !== doc) {
        await scopeWhere(tx.updateTable("session_memory_entities").set({ name: e.name, doc }), key).where("id", "=", e.id).execute();
      }
    }
    for (const rows of chunks(entityRows, CHUNK)) await tx.insertInto("session_memory_entities").values(rows).execute();
    const factRows = [];
    for (const f of facts) {
      const old = oldFacts.get(f.fact_id);
      const doc = JSON.stringify(f.doc);
      if (!old) factRows.push({ ...key, fact_id: f.fact_id, subject_id: f.subject_id, predicate: f.predicate, object_id: f.object_id, doc, expires_at: expiresAt });
      else if (JSON.stringify(old.doc) !== doc) {
        await scopeWhere(tx.updateTable("session_memory_facts").set({ doc }), key).where("fact_id", "=", f.fact_id).execute();
      }
    }
    for (const rows of chunks(factRows, CHUNK)) await tx.insertInto("session_memory_facts").values(rows).execute();
  }

  async clear(owner: ScopeOwner, expiresAt: number, now: number): Promise<void> {
    const key = scopeKeyOf(owner);
    await inTransaction(this.db, async (tx) => {
      await lockTenant(tx, owner.tenant_id);
      if (await isRevoked(tx, owner.tenant_id, owner.session_id)) throw new AppError("session_revoked");
      if (await otherSubject(tx, owner)) throw new AppError("session_forbidden");
      const root = await readRoot(tx, key);
      if (root) {
        if (root.subject_id !== owner.subject_id) throw new AppError("session_forbidden");
        await dropContent(tx, key);
        await scopeWhere(tx.updateTable("session_memory_scopes").set({ deleted_at: root.deleted ? undefined : new Date(now), revision: root.revision + 1, updated_at: new Date(now) }), key).execute();
        return;
      }
      enforceQuotas({
        creatingRoot: true,
        sessionRoots: await countWhere(tx, owner.tenant_id, owner.session_id),
        tenantRoots: await countWhere(tx, owner.tenant_id, null),
        sessionLiveFactsElsewhere: 0,
        tenantLiveFactsElsewhere: 0,
        factsAfter: 0,
      });
      await tx
        .insertInto("session_memory_scopes")
        .values({ ...key, subject_id: owner.subject_id, doc: "{}", revision: 1, expires_at: new Date(expiresAt), deleted_at: new Date(now), fact_count: 0, entity_count: 0, size_bytes: 0 })
        .execute();
    });
  }

  async revokeSession(tenantId: string, sessionId: string, now: number): Promise<void> {
    await this.db
      .insertInto("session_memory_revocations")
      .values({ tenant_id: tenantId, session_id: sessionId, revoked_at: new Date(now) })
      .onConflict((oc) => oc.columns(["tenant_id", "session_id"]).doNothing())
      .execute();
  }

  async purgeSession(tenantId: string, sessionId: string, batch: number): Promise<PurgeResult> {
    return inTransaction(this.db, async (tx) => {
      // The namespaces' docs (fact history, predicate table) go first, in one statement; history entries count as removed.
      const docs = await sql<{ n: number | string }>`
        with old as (
          select ns, coalesce(jsonb_array_length(case when jsonb_typeof(doc->'history') = 'array' then doc->'history' end), 0) as n
          from session_memory_scopes where tenant_id = ${tenantId} and session_id = ${sessionId} and doc <> '{}'::jsonb
        )
        update session_memory_scopes s set doc = '{}'::jsonb from old
        where s.tenant_id = ${tenantId} and s.session_id = ${sessionId} and s.ns = old.ns
        returning old.n`.execute(tx);
      const historyRemoved = docs.rows.reduce((n, r) => n + Number(r.n), 0);
      const facts = await sql<{ n: number }>`
        with doomed as (
          select tenant_id, session_id, ns, fact_id from session_memory_facts
          where tenant_id = ${tenantId} and session_id = ${sessionId} limit ${batch}
        )
        delete from session_memory_facts f using doomed d
        where f.tenant_id = d.tenant_id and f.session_id = d.session_id and f.ns = d.ns and f.fact_id = d.fact_id`.execute(tx);
      let removed = Number(facts.numAffectedRows ?? 0) + historyRemoved;
      if (removed < batch) {
        const ents = await sql`
          with doomed as (
            select e.tenant_id, e.session_id, e.ns, e.id from session_memory_entities e
            where e.tenant_id = ${tenantId} and e.session_id = ${sessionId} limit ${batch - removed}
          )
          delete from session_memory_entities e using doomed d
          where e.tenant_id = d.tenant_id and e.session_id = d.session_id and e.ns = d.ns and e.id = d.id`.execute(tx);
        removed += Number(ents.numAffectedRows ?? 0);
      }
      await sql`
        update session_memory_scopes s set
          fact_count = (select count(*) from session_memory_facts f where f.tenant_id = s.tenant_id and f.session_id = s.session_id and f.ns = s.ns),
          entity_count = (select count(*) from session_memory_entities e where e.tenant_id = s.tenant_id and e.session_id = s.session_id and e.ns = s.ns)
        where s.tenant_id = ${tenantId} and s.session_id = ${sessionId}`.execute(tx);
      const left = await tx.selectFrom("session_memory_entities").select("id").where("tenant_id", "=", tenantId).where("session_id", "=", sessionId).limit(1).executeTakeFirst();
      return { removed, done: left === undefined };
    });
  }

  async purgeExpired(now: number, batch: number): Promise<PurgeResult> {
    const at = new Date(now);
    return inTransaction(this.db, async (tx) => {
      // Expired namespaces' docs (fact history) go with the first batch.
      await sql`update session_memory_scopes set doc = '{}'::jsonb where expires_at <= ${at} and doc <> '{}'::jsonb`.execute(tx);
      const facts = await sql`
        with doomed as (
          select tenant_id, session_id, ns, fact_id from session_memory_facts where expires_at <= ${at} limit ${batch}
        )
        delete from session_memory_facts f using doomed d
        where f.tenant_id = d.tenant_id and f.session_id = d.session_id and f.ns = d.ns and f.fact_id = d.fact_id`.execute(tx);
      let removed = Number(facts.numAffectedRows ?? 0);
      if (removed < batch) {
        const ents = await sql`
          with doomed as (
            select e.tenant_id, e.session_id, e.ns, e.id from session_memory_entities e
            where e.expires_at <= ${at}
              and not exists (select 1 from session_memory_facts f where f.tenant_id = e.tenant_id and f.session_id = e.session_id and f.ns = e.ns
                              and (f.subject_id = e.id or f.object_id = e.id))
            limit ${batch - removed}
          )
          delete from session_memory_entities e using doomed d
          where e.tenant_id = d.tenant_id and e.session_id = d.session_id and e.ns = d.ns and e.id = d.id`.execute(tx);
        removed += Number(ents.numAffectedRows ?? 0);
      }
      await sql`
        update session_memory_scopes s set fact_count = 0, entity_count = 0, size_bytes = 0
        where s.expires_at <= ${at} and (s.fact_count > 0 or s.entity_count > 0)
          and not exists (select 1 from session_memory_entities e where e.tenant_id = s.tenant_id and e.session_id = s.session_id and e.ns = s.ns)`.execute(tx);
      const left = await tx.selectFrom("session_memory_entities").select("id").where("expires_at", "<=", at).limit(1).executeTakeFirst();
      return { removed, done: left === undefined };
    });
  }
}
