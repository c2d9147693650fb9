/**
 * Neo4j SessionMemoryStore (MEMORY_STORE=neo4j), MEM-1/MEM-2/MEM-4.
 *
 * Inputs: a driver (db/graph/neo4j/driver.ts) and the schema of schema.ts
 * (`ensureSchema()` creates it idempotently).
 *
 * Load, commit and clear are the protocol of core/memory/session-protocol.ts
 * over the primitives here. A write unit is one managed write transaction
 * that first takes the tenant's lock node (`MERGE (t:SessionMemoryTenant
 * {tenant_id}) SET t.lock = t.lock + 1`: a write lock Neo4j holds until
 * commit), so two writers of one tenant — in this process or another — are
 * serial; then it reads the root, the tombstone and the tenant's counts under
 * that lock and writes only the difference. A refusal throws inside the
 * transaction function, so Neo4j rolls the whole transaction back: nothing
 * half-written. Transient errors (deadlocks) are retried by the driver's
 * managed transactions.
 *
 * Reads are one round trip (session-queries.ts LOAD) that checks the
 * tombstone, the subject, closure and expiry before any content is returned;
 * expired content is removed on access.
 */
import { chunks } from "../../../core/chunks";
import { AppError } from "../../../core/errors";
import { MAX_ENTITIES_PER_NAMESPACE, MAX_FACTS_PER_NAMESPACE } from "../../../core/limits";
import { diffContent } from "../../../core/memory/content-diff";
import { historyOf } from "../../../core/memory/history";
import { SessionProtocolStore, type SessionStorage, type SessionWriteUnit, type ScopeWrite } from "../../../core/memory/session-protocol";
import type { SessionMemoryStore } from "../../../core/memory/store";
import type { PurgeResult, ScopeKey, ScopeOwner, SnapshotContent } from "../../../core/memory/types";
import { scopeKeyOf } from "../../../core/memory/types";
import { int, one, Neo4jStore, type Tx } from "./driver";
import * as Q from "./session-queries";
import { ensureSchema } from "./schema";
import { loadReadOf, writeStateOf, type StoredEntity, type StoredFact, type StoredRoot, type StoredWriteState } from "../graph-rows";

const CHUNK = 500;

function scopeParams(key: ScopeKey): { tenant: string; session: string; ns: string } {
  return { tenant: key.tenant_id, session: key.session_id, ns: key.ns };
}

const bounds = { max_entities: int(MAX_ENTITIES_PER_NAMESPACE), max_facts: int(MAX_FACTS_PER_NAMESPACE) };

export class Neo4jSessionStore extends SessionProtocolStore(Neo4jStore) implements SessionMemoryStore {
  protected readonly storage: SessionStorage = {
    readLoad: async (owner, now) =>
      loadReadOf(
        await this.run("READ", (tx) =>
          one<{ revoked: boolean; other_subject: boolean; root: StoredRoot | null; entities: StoredEntity[]; facts: StoredFact[] }>(tx, Q.LOAD, {
            ...scopeParams(owner),
            subject: owner.subject_id,
            now: int(now),
            ...bounds,
          }),
        ),
      ),
    dropExpired: async (key, now) => {
      await this.run("WRITE", (tx) => tx.run(Q.DROP_EXPIRED_CONTENT, { ...scopeParams(key), now: int(now) }));
    },
    write: (owner, now, fn) =>
      this.run("WRITE", async (tx) => {
        await tx.run(Q.LOCK_TENANT, { tenant: owner.tenant_id });
        return fn(this.unit(tx, owner, now));
      }),
  };

  /** Creates the constraints and indexes (idempotent). */
  ensureSchema(): Promise<void> {
    return ensureSchema(this.driver, undefined, this.database);
  }

  /** A write unit inside one write transaction, after the tenant's lock. */
  private unit(tx: Tx, owner: ScopeOwner, now: number): SessionWriteUnit {
    const key = scopeKeyOf(owner);
    const sp = scopeParams(key);
    return {
      readState: async () => writeStateOf(await one<StoredWriteState>(tx, Q.WRITE_STATE, { ...sp, subject: owner.subject_id, now: int(now) })),
      dropExpired: async () => {
        await tx.run(Q.DROP_CONTENT, sp);
      },
      writeScope: (w) => this.writeScope(tx, owner, w),
      close: async () => {
        await tx.run(Q.DROP_CONTENT, sp);
        await tx.run(Q.CLOSE_SCOPE, { ...sp, now: int(now) });
      },
      createClosed: async (expiresAt) => {
        await tx.run(Q.CREATE_CLOSED_SCOPE, { ...sp, subject: owner.subject_id, expires_at: int(expiresAt), now: int(now) });
      },
    };
  }

  private async writeScope(tx: Tx, owner: ScopeOwner, w: ScopeWrite): Promise<void> {
    const key = scopeKeyOf(owner);
    const params = {
      ...scopeParams(key),
      subject: owner.subject_id,
      doc: JSON.stringify(w.content.doc),
      revision: int(w.revision),
      expected: int(w.expectedRevision),
      expires_at: int(w.expiresAt),
      fact_count: int(w.factCount),
      entity_count: int(w.content.entities.length),
      size_bytes: int(w.bytes),
      now: int(w.now),
    };
    if (w.create) {
      await tx.run(Q.CREATE_SCOPE, params);
    } else {
      const { n } = await one<{ n: number }>(tx, Q.UPDATE_SCOPE, params);
      if (n !== 1) throw new AppError("revision_conflict");
    }
    await this.writeDiff(tx, key, w.expiresAt, w.content, w.create);
  }

  /** Writes only what changed: removed facts, removed entities, then new/changed entities and facts. */
  private async writeDiff(tx: Tx, key: ScopeKey, expiresAt: number, content: SnapshotContent, fresh: boolean): Promise<void> {
    const sp = scopeParams(key);
    const old = fresh ? { entities: [] as StoredEntity[], facts: [] as StoredFact[] } : await one<{ entities: StoredEntity[]; facts: StoredFact[] }>(tx, Q.CONTENT, { ...sp, ...bounds });
    const d = diffContent(old, content);
    for (const ids of chunks(d.dropFacts.map((f) => f.fact_id), CHUNK)) await tx.run(Q.DELETE_FACTS, { ...sp, ids });
    for (const ids of chunks(d.dropEntities.map((e) => e.id), CHUNK)) await tx.run(Q.DELETE_ENTITIES, { ...sp, ids });

    const created: StoredEntity[] = d.addEntities.map(({ entity: e, doc }) => ({ id: e.id, name: e.name, type: e.type, doc }));
    const changed = d.changedEntities.map(({ entity: e, doc }) => ({ id: e.id, name: e.name, doc }));
    for (const batch of chunks(created, CHUNK)) await tx.run(Q.CREATE_ENTITIES, { ...sp, rows: batch, expires_at: int(expiresAt) });
    for (const batch of chunks(changed, CHUNK)) await tx.run(Q.UPDATE_ENTITIES, { ...sp, rows: batch });

    const newFacts: StoredFact[] = d.addFacts.map(({ fact: f, doc }) => ({ fact_id: f.fact_id, subject_id: f.subject_id, predicate: f.predicate, object_id: f.object_id, doc }));
    const changedFacts = d.changedFacts.map(({ fact: f, doc }) => ({ fact_id: f.fact_id, doc }));
    for (const batch of chunks(newFacts, CHUNK)) {
      const { n } = await one<{ n: number }>(tx, Q.CREATE_FACTS, { ...sp, rows: batch, expires_at: int(expiresAt) });
      // checkSnapshot guarantees both endpoints are in the snapshot just written; anything else is a bug: roll back.
      if (n !== batch.length) throw new AppError("internal", { message: "A fact endpoint was missing while writing session memory." });
    }
    for (const batch of chunks(changedFacts, CHUNK)) await tx.run(Q.UPDATE_FACTS, { ...sp, rows: batch });
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
