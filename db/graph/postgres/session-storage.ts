/**
 * The storage primitives of the PostgreSQL session store, under the protocol
 * of core/memory/session-protocol.ts. A write unit is one transaction that
 * first locks the tenant's row in `session_memory_tenants` (FOR UPDATE), so
 * revision and quota checks of concurrent writers of one tenant are serial;
 * any refusal rolls the whole transaction back: nothing half-written. A load
 * is one statement (one consistent MVCC snapshot, no explicit transaction).
 * Query text is constant; values travel as parameters.
 */
import { sql } from "kysely";
import { chunks } from "../../../core/chunks";
import { AppError } from "../../../core/errors";
import { diffContent } from "../../../core/memory/content-diff";
import type { RootState } from "../../../core/memory/quotas";
import type { LoadRead, SessionStorage, SessionWriteUnit, WriteState } from "../../../core/memory/session-protocol";
import type { ScopeKey, ScopeOwner, SessionEntity, SessionFact, SnapshotContent } from "../../../core/memory/types";
import { scopeKeyOf } from "../../../core/memory/types";
import { inTransaction } from "../../../core/transaction";
import { executePrepared } from "../../../core/prepare";
import type { Db, Tx } from "../../schema";

const CHUNK = 500;

function scopeWhere<Q extends { where: (...a: any[]) => Q }>(q: Q, key: ScopeKey): Q {
  return q.where("tenant_id", "=", key.tenant_id).where("session_id", "=", key.session_id).where("ns", "=", key.ns);
}

async function lockTenant(tx: Tx, tenantId: string): Promise<void> {
  const lock = async () => (await executePrepared(tx, "session_tenant_lock", tx.selectFrom("session_memory_tenants").select("tenant_id").where("tenant_id", "=", tenantId).forUpdate())).rows;
  // The tenant's row exists after its first commit: one statement then. Two first commits both
  // insert (one does nothing) and then queue on the same row lock.
  if ((await lock()).length > 0) return;
  await executePrepared(tx, "session_tenant_insert", tx.insertInto("session_memory_tenants").values({ tenant_id: tenantId }).onConflict((oc) => oc.column("tenant_id").doNothing()));
  await lock();
}

/** Removes a namespace's entities and facts (expiry on access, clear). */
async function dropContent(tx: Tx, key: ScopeKey): Promise<void> {
  await scopeWhere(tx.deleteFrom("session_memory_facts"), key).execute();
  await scopeWhere(tx.deleteFrom("session_memory_entities"), key).execute();
  await scopeWhere(tx.updateTable("session_memory_scopes").set({ fact_count: 0, entity_count: 0, size_bytes: 0, doc: "{}" }), key).execute();
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
 * What a write checks, read by ONE statement under the tenant's lock: revocation, another
 * subject on the session, the root, and the quota counts (live facts in the tenant's and the
 * session's other namespaces, revoked sessions not counted) — the checks of a commit and of a clear.
 * A commit is the hot write of a runtime's loop: one round trip here instead of seven.
 */
async function readWriteState(tx: Tx, owner: ScopeOwner, key: ScopeKey, now: Date): Promise<WriteState> {
  const live = (sessionOnly: boolean) => sql`(select coalesce(sum(x.fact_count), 0) from session_memory_scopes x
      where x.tenant_id = ${key.tenant_id} and x.deleted_at is null and x.expires_at > ${now}
        and not (x.session_id = ${key.session_id} and x.ns = ${key.ns})
        and not exists (select 1 from session_memory_revocations r where r.tenant_id = x.tenant_id and r.session_id = x.session_id)
        ${sessionOnly ? sql`and x.session_id = ${key.session_id}` : sql``})`;
  const r = await executePrepared(
    tx,
    "session_write_state",
    sql<CommitChecksRow>`
    select
      ${accessColumns(owner, key)},
      (select count(*) from session_memory_scopes c where c.tenant_id = ${key.tenant_id} and c.session_id = ${key.session_id}) as session_roots,
      (select count(*) from session_memory_scopes c where c.tenant_id = ${key.tenant_id}) as tenant_roots,
      ${live(true)} as session_live_elsewhere,
      ${live(false)} as tenant_live_elsewhere
    ${accessFrom(key)}`,
  );
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

/** Writes only what changed: removed facts, removed entities, then new/changed entities and facts. */
async function writeDiff(tx: Tx, key: ScopeKey, expiresAt: Date, content: SnapshotContent): Promise<void> {
  // What is stored now, entities and facts, in one statement (as a load reads them).
  const stored = (
    await executePrepared(
      tx,
      "session_stored",
      sql<{ entities: unknown; facts: unknown }>`
      select
        (select coalesce(json_agg(json_build_array(e.id, e.name, e.doc)), '[]'::json)
           from session_memory_entities e
          where e.tenant_id = ${key.tenant_id} and e.session_id = ${key.session_id} and e.ns = ${key.ns}) as entities,
        (select coalesce(json_agg(json_build_array(f.fact_id, f.doc)), '[]'::json)
           from session_memory_facts f
          where f.tenant_id = ${key.tenant_id} and f.session_id = ${key.session_id} and f.ns = ${key.ns}) as facts`,
    )
  ).rows[0];
  const d = diffContent(
    {
      entities: asJson<Array<[string, string, unknown]>>(stored?.entities ?? "[]").map(([id, name, doc]) => ({ id, name, doc: JSON.stringify(doc) })),
      facts: asJson<Array<[string, unknown]>>(stored?.facts ?? "[]").map(([fact_id, doc]) => ({ fact_id, doc: JSON.stringify(doc) })),
    },
    content,
  );
  for (const ids of chunks(d.dropFacts.map((f) => f.fact_id), CHUNK)) {
    await scopeWhere(tx.deleteFrom("session_memory_facts"), key).where("fact_id", "in", ids).execute();
  }
  for (const ids of chunks(d.dropEntities.map((e) => e.id), CHUNK)) {
    await scopeWhere(tx.deleteFrom("session_memory_entities"), key).where("id", "in", ids).execute();
  }
  for (const { entity: e, doc } of d.changedEntities) {
    await scopeWhere(tx.updateTable("session_memory_entities").set({ name: e.name, doc }), key).where("id", "=", e.id).execute();
  }
  const entityRows = d.addEntities.map(({ entity: e, doc }) => ({ ...key, id: e.id, name: e.name, type: e.type, doc, expires_at: expiresAt }));
  for (const rows of chunks(entityRows, CHUNK)) await tx.insertInto("session_memory_entities").values(rows).execute();
  for (const { fact: f, doc } of d.changedFacts) {
    await scopeWhere(tx.updateTable("session_memory_facts").set({ doc }), key).where("fact_id", "=", f.fact_id).execute();
  }
  const factRows = d.addFacts.map(({ fact: f, doc }) => ({ ...key, fact_id: f.fact_id, subject_id: f.subject_id, predicate: f.predicate, object_id: f.object_id, doc, expires_at: expiresAt }));
  for (const rows of chunks(factRows, CHUNK)) await tx.insertInto("session_memory_facts").values(rows).execute();
}

/**
 * One statement: revocation, another subject on the session, the root, and the
 * scope's entities and facts aggregated as JSON.
 */
async function readLoad(db: Db, owner: ScopeOwner): Promise<LoadRead> {
  const key = scopeKeyOf(owner);
  const r = await executePrepared(
    db,
    "session_load",
    sql<LoadRow>`
    select
      ${accessColumns(owner, key)}, s.doc,
      (select coalesce(json_agg(json_build_array(e.id, e.name, e.type, e.doc) order by e.id), '[]'::json)
         from session_memory_entities e
        where e.tenant_id = ${key.tenant_id} and e.session_id = ${key.session_id} and e.ns = ${key.ns}) as entities,
      (select coalesce(json_agg(json_build_array(f.fact_id, f.subject_id, f.predicate, f.object_id, f.doc) order by f.fact_id), '[]'::json)
         from session_memory_facts f
        where f.tenant_id = ${key.tenant_id} and f.session_id = ${key.session_id} and f.ns = ${key.ns}) as facts
    ${accessFrom(key)}`,
  );
  const row = r.rows[0];
  if (!row) throw new AppError("internal");
  const entities = asJson<Array<[string, string, string, SessionEntity["doc"]]>>(row.entities);
  const facts = asJson<Array<[string, string, string, string, SessionFact["doc"]]>>(row.facts);
  return {
    revoked: Boolean(row.revoked),
    otherSubject: Boolean(row.other_subject),
    root: rootOf(row),
    content: {
      doc: asJson<Record<string, unknown>>(row.doc ?? {}),
      entities: entities.map(([id, name, type, doc]) => ({ id, name, type, doc })),
      facts: facts.map(([fact_id, subject_id, predicate, object_id, doc]) => ({ fact_id, subject_id, predicate, object_id, doc })),
    },
  };
}

/** A write unit over one transaction, after the tenant's lock. */
function writeUnit(tx: Tx, owner: ScopeOwner, now: Date): SessionWriteUnit {
  const key = scopeKeyOf(owner);
  let root: RootState | null = null;
  return {
    readState: async () => {
      const st = await readWriteState(tx, owner, key, now);
      root = st.root;
      return st;
    },
    dropExpired: () => dropContent(tx, key),
    writeScope: async (w) => {
      // fact_count is what the quotas count: live facts plus history entries.
      const counts = { fact_count: w.factCount, entity_count: w.content.entities.length, size_bytes: w.bytes };
      const doc = JSON.stringify(w.content.doc);
      if (w.create) {
        await tx
          .insertInto("session_memory_scopes")
          .values({ ...key, subject_id: owner.subject_id, doc, revision: w.revision, expires_at: new Date(w.expiresAt), deleted_at: null, ...counts })
          .execute();
      } else {
        await executePrepared(tx, "session_scope_update", scopeWhere(tx.updateTable("session_memory_scopes").set({ revision: w.revision, doc, updated_at: now, ...counts }), key));
      }
      await writeDiff(tx, key, new Date(w.expiresAt), w.content);
    },
    close: async () => {
      if (!root) throw new AppError("internal");
      await dropContent(tx, key);
      await scopeWhere(tx.updateTable("session_memory_scopes").set({ deleted_at: root.deleted ? undefined : now, revision: root.revision + 1, updated_at: now }), key).execute();
    },
    createClosed: async (expiresAt) => {
      await tx
        .insertInto("session_memory_scopes")
        .values({ ...key, subject_id: owner.subject_id, doc: "{}", revision: 1, expires_at: new Date(expiresAt), deleted_at: now, fact_count: 0, entity_count: 0, size_bytes: 0 })
        .execute();
    },
  };
}

export function postgresSessionStorage(db: Db): SessionStorage {
  return {
    readLoad: (owner) => readLoad(db, owner),
    dropExpired: (key) => inTransaction(db, (tx) => dropContent(tx, key)),
    write: (owner, now, fn) =>
      inTransaction(db, async (tx) => {
        await lockTenant(tx, owner.tenant_id);
        return fn(writeUnit(tx, owner, new Date(now)));
      }),
  };
}
