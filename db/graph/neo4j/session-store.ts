/**
 * Neo4j SessionMemoryStore (MEMORY_STORE=neo4j), MEM-1/MEM-2/MEM-4.
 *
 * Inputs: a driver (db/graph/neo4j/driver.ts) and the schema of schema.ts
 * (`ensureSchema()` creates it idempotently).
 *
 * Every write runs in one managed write transaction that first takes the
 * tenant's lock node (`MERGE (t:SessionMemoryTenant {tenant_id}) SET t.lock
 * = t.lock + 1`: a write lock Neo4j holds until commit), so two writers of one
 * tenant — in this process or another — are serial; then it reads the root,
 * the tombstone and the tenant's counts under that lock, runs the same checks
 * as every adapter (core/memory/quotas.ts `checkRoot`/`enforceQuotas`,
 * core/memory/snapshot.ts `checkSnapshot`), and writes only the difference.
 * A refusal throws inside the transaction function, so Neo4j rolls the whole
 * transaction back: nothing half-written. Transient errors (deadlocks) are
 * retried by the driver's managed transactions.
 *
 * Reads are one round trip (session-queries.ts LOAD) that checks the
 * tombstone, the subject, closure and expiry before any content is returned;
 * expired content is removed on access.
 */
import { chunks } from "../../../core/chunks";
import { AppError } from "../../../core/errors";
import { MAX_ENTITIES_PER_NAMESPACE, MAX_FACTS_PER_NAMESPACE } from "../../../core/limits";
import { checkLoad, checkRoot } from "../../../core/memory/quotas";
import { historyOf, storedFactCount } from "../../../core/memory/history";
import { checkSnapshot } from "../../../core/memory/snapshot";
import type { SessionMemoryStore } from "../../../core/memory/store";
import type {
  CommitInput,
  CommitResult,
  PurgeResult,
  ScopeKey,
  ScopeOwner,
  ScopeSnapshot,
  SessionFact,
  SnapshotContent,
} from "../../../core/memory/types";
import { scopeKeyOf } from "../../../core/memory/types";
import { int, one, Neo4jStore, type Tx } from "./driver";
import * as Q from "./session-queries";
import { ensureSchema } from "./schema";
import { enforceScopeQuotas, toSnapshot, type StoredEntity, type StoredFact, type StoredRoot } from "../graph-rows";

interface Guard {
  revoked: boolean;
  other_subject: boolean;
  root: StoredRoot | null;
}

interface WriteState extends Guard {
  tenant_roots: number;
  session_roots: number;
  tenant_live_facts: number;
  session_live_facts: number;
}


const CHUNK = 500;


function scopeParams(key: ScopeKey): { tenant: string; session: string; ns: string } {
  return { tenant: key.tenant_id, session: key.session_id, ns: key.ns };
}

const bounds = { max_entities: int(MAX_ENTITIES_PER_NAMESPACE), max_facts: int(MAX_FACTS_PER_NAMESPACE) };

export class Neo4jSessionStore extends Neo4jStore implements SessionMemoryStore {
  /** Creates the constraints and indexes (idempotent). */
  ensureSchema(): Promise<void> {
    return ensureSchema(this.driver, undefined, this.database);
  }

  async load(owner: ScopeOwner, now: number): Promise<ScopeSnapshot | null> {
    const key = scopeKeyOf(owner);
    const r = await this.run("READ", (tx) =>
      one<Guard & { entities: StoredEntity[]; facts: StoredFact[] }>(tx, Q.LOAD, { ...scopeParams(key), subject: owner.subject_id, now: int(now), ...bounds }),
    );
    const root = r.root;
    const state = checkLoad(root, { revoked: r.revoked, otherSubject: r.other_subject, now });
    if (!root || state === "absent") return null;
    if (state === "expired") {
      await this.run("WRITE", (tx) => tx.run(Q.DROP_EXPIRED_CONTENT, { ...scopeParams(key), now: int(now) }));
      throw new AppError("session_expired");
    }
    return toSnapshot(key, root, r.entities, r.facts);
  }

  private async lockAndRead(tx: Tx, owner: ScopeOwner, now: number): Promise<WriteState> {
    await tx.run(Q.LOCK_TENANT, { tenant: owner.tenant_id });
    return one<WriteState>(tx, Q.WRITE_STATE, { ...scopeParams(owner), subject: owner.subject_id, now: int(now) });
  }

  async commit(input: CommitInput): Promise<CommitResult> {
    const { owner } = input;
    const key = scopeKeyOf(owner);
    const result = await this.run("WRITE", async (tx): Promise<CommitResult | "expired"> => {
      const st = await this.lockAndRead(tx, owner, input.now);
      const root = st.root;
      const state = checkRoot(root, { subject_id: owner.subject_id, expectedRevision: input.expectedRevision, expiresAt: input.expiresAt }, {
        revoked: st.revoked,
        otherSubject: st.other_subject,
        now: input.now,
      });
      if (state === "expired") {
        if (root) await tx.run(Q.DROP_CONTENT, scopeParams(key));
        return "expired";
      }
      const bytes = checkSnapshot(key, input.content);
      enforceScopeQuotas(st, root === null, storedFactCount(input.content));
      const revision = (root?.revision ?? 0) + 1;
      const params = {
        ...scopeParams(key),
        subject: owner.subject_id,
        doc: JSON.stringify(input.content.doc),
        revision: int(revision),
        expected: int(input.expectedRevision),
        expires_at: int(input.expiresAt),
        // What the quotas count: live facts plus history entries.
        fact_count: int(storedFactCount(input.content)),
        entity_count: int(input.content.entities.length),
        size_bytes: int(bytes),
        now: int(input.now),
      };
      if (root) {
        const { n } = await one<{ n: number }>(tx, Q.UPDATE_SCOPE, params);
        if (n !== 1) throw new AppError("revision_conflict");
      } else {
        await tx.run(Q.CREATE_SCOPE, params);
      }
      await this.writeDiff(tx, key, input.expiresAt, input.content, root === null);
      return { revision };
    });
    if (result === "expired") throw new AppError("session_expired");
    return result;
  }

  /** Writes only what changed: removed facts, removed entities, then new/changed entities and facts. */
  private async writeDiff(tx: Tx, key: ScopeKey, expiresAt: number, content: SnapshotContent, fresh: boolean): Promise<void> {
    const sp = scopeParams(key);
    const old = fresh ? { entities: [] as StoredEntity[], facts: [] as StoredFact[] } : await one<{ entities: StoredEntity[]; facts: StoredFact[] }>(tx, Q.CONTENT, { ...sp, ...bounds });
    const oldEntities = new Map(old.entities.map((e) => [e.id, e]));
    const oldFacts = new Map(old.facts.map((f) => [f.fact_id, f]));
    const newEntityIds = new Set(content.entities.map((e) => e.id));
    const newFactIds = new Set(content.facts.map((f) => f.fact_id));

    for (const ids of chunks([...oldFacts.keys()].filter((id) => !newFactIds.has(id)), CHUNK)) await tx.run(Q.DELETE_FACTS, { ...sp, ids });
    for (const ids of chunks([...oldEntities.keys()].filter((id) => !newEntityIds.has(id)), CHUNK)) await tx.run(Q.DELETE_ENTITIES, { ...sp, ids });

    const created: StoredEntity[] = [];
    const changed: Array<Pick<StoredEntity, "id" | "name" | "doc">> = [];
    for (const e of content.entities) {
      const prev = oldEntities.get(e.id);
      const doc = JSON.stringify(e.doc);
      if (!prev) created.push({ id: e.id, name: e.name, type: e.type, doc });
      else if (prev.name !== e.name || prev.doc !== doc) changed.push({ id: e.id, name: e.name, doc });
    }
    for (const batch of chunks(created, CHUNK)) await tx.run(Q.CREATE_ENTITIES, { ...sp, rows: batch, expires_at: int(expiresAt) });
    for (const batch of chunks(changed, CHUNK)) await tx.run(Q.UPDATE_ENTITIES, { ...sp, rows: batch });

    const newFacts: StoredFact[] = [];
    const changedFacts: Array<Pick<StoredFact, "fact_id" | "doc">> = [];
    for (const f of content.facts) {
      const prev = oldFacts.get(f.fact_id);
      const doc = JSON.stringify(f.doc);
      if (!prev) newFacts.push(factRow(f, doc));
      else if (prev.doc !== doc) changedFacts.push({ fact_id: f.fact_id, doc });
    }
    for (const batch of chunks(newFacts, CHUNK)) {
      const { n } = await one<{ n: number }>(tx, Q.CREATE_FACTS, { ...sp, rows: batch, expires_at: int(expiresAt) });
      // checkSnapshot guarantees both endpoints are in the snapshot just written; anything else is a bug: roll back.
      if (n !== batch.length) throw new AppError("internal", { message: "A fact endpoint was missing while writing session memory." });
    }
    for (const batch of chunks(changedFacts, CHUNK)) await tx.run(Q.UPDATE_FACTS, { ...sp, rows: batch });
  }

  async clear(owner: ScopeOwner, expiresAt: number, now: number): Promise<void> {
    const key = scopeKeyOf(owner);
    await this.run("WRITE", async (tx) => {
      const st = await this.lockAndRead(tx, owner, now);
      if (st.revoked) throw new AppError("session_revoked");
      if (st.other_subject || (st.root && st.root.subject_id !== owner.subject_id)) throw new AppError("session_forbidden");
      if (st.root) {
        await tx.run(Q.DROP_CONTENT, scopeParams(key));
        await tx.run(Q.CLOSE_SCOPE, { ...scopeParams(key), now: int(now) });
        return;
      }
      // A closed root holds no facts: only the root bounds apply.
      enforceScopeQuotas({ ...st, session_live_facts: 0, tenant_live_facts: 0 }, true, 0);
      await tx.run(Q.CREATE_CLOSED_SCOPE, { ...scopeParams(key), subject: owner.subject_id, expires_at: int(expiresAt), now: int(now) });
    });
  }

  /**
   * Takes the tenant lock too: a writer that checked the tombstone before us
   * has committed by the time we return, and every later writer sees it — so
   * a purge that starts after this returns leaves nothing a worker can add back.
   */
  async revokeSession(tenantId: string, sessionId: string, now: number): Promise<void> {
    await this.run("WRITE", async (tx) => {
      await tx.run(Q.LOCK_TENANT, { tenant: tenantId });
      await tx.run(Q.REVOKE, { tenant: tenantId, session: sessionId, now: int(now) });
    });
  }

  async purgeSession(tenantId: string, sessionId: string, batch: number): Promise<PurgeResult> {
    const p = { tenant: tenantId, session: sessionId };
    return this.run("WRITE", async (tx) => {
      // The namespaces' docs (fact history, predicate table) go first; history entries count as removed.
      const docs = await tx.run(Q.PURGE_SESSION_DOCS, p);
      const history = docs.records.reduce((n, r) => n + historyOf({ doc: JSON.parse(String(r.get("doc"))) as Record<string, unknown> }).length, 0);
      let removed = history + (await one<{ n: number }>(tx, Q.PURGE_SESSION_FACTS, { ...p, batch: int(batch) })).n;
      if (removed < batch) removed += (await one<{ n: number }>(tx, Q.PURGE_SESSION_ENTITIES, { ...p, batch: int(batch - removed) })).n;
      const { left } = await one<{ left: boolean }>(tx, Q.RECOUNT_SESSION, p);
      return { removed, done: !left };
    });
  }

  async purgeExpired(now: number, batch: number): Promise<PurgeResult> {
    return this.run("WRITE", async (tx) => {
      await tx.run(Q.PURGE_EXPIRED_DOCS, { now: int(now) });
      let removed = (await one<{ n: number }>(tx, Q.PURGE_EXPIRED_FACTS, { now: int(now), batch: int(batch) })).n;
      if (removed < batch) removed += (await one<{ n: number }>(tx, Q.PURGE_EXPIRED_ENTITIES, { now: int(now), batch: int(batch - removed) })).n;
      const { left } = await one<{ left: boolean }>(tx, Q.RECOUNT_EXPIRED, { now: int(now) });
      return { removed, done: !left };
    });
  }
}

function factRow(f: SessionFact, doc: string): StoredFact {
  return { fact_id: f.fact_id, subject_id: f.subject_id, predicate: f.predicate, object_id: f.object_id, doc };
}

