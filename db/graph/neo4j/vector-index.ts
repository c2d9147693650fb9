/**
 * Session vectors in Neo4j (VEC-3): bounded exact similarity within the
 * selected scope. Vectors are `SessionMemoryVector` nodes keyed by (tenant,
 * session, ns, model, id) — compound, so equal logical IDs in two sessions
 * never overwrite each other — and kept apart from `SessionMemoryEntity` so
 * that an index write can never add an entity to a snapshot.
 *
 * Search matches the scope's vectors of one model that are still live (at
 * most MAX_ENTITIES_PER_NAMESPACE of them), scores each with Cypher's
 * `vector.similarity.cosine` — which Neo4j normalises to (1 + cos) / 2; we
 * map it back to cos in [-1, 1] — and returns the best `limit`. No ANN index:
 * the scope is bounded, so exact is cheap and never crosses scopes.
 *
 * An upsert for a revoked session writes nothing (the tombstone is checked in
 * the same statement), so an old worker cannot recreate a revoked session's
 * vectors after cleanup.
 */
import { MAX_ENTITIES_PER_NAMESPACE } from "../../../core/limits";
import type { SessionVectorIndex, VectorHit, VectorRecord } from "../../../core/memory/vector-index";
import type { PurgeResult, ScopeKey } from "../../../core/memory/types";
import { int, one, rows, Neo4jStore } from "./driver";

const UPSERT = `
UNWIND $rows AS row
WITH row WHERE NOT EXISTS { MATCH (:SessionMemoryRevocation {tenant_id: row.tenant_id, session_id: row.session_id}) }
MERGE (v:SessionMemoryVector {tenant_id: row.tenant_id, session_id: row.session_id, ns: row.ns, model: row.model, id: row.id})
SET v.vector = row.vector, v.expires_at = row.expires_at`;

const SEARCH = `
MATCH (v:SessionMemoryVector {tenant_id: $tenant, session_id: $session, ns: $ns, model: $model})
WHERE v.expires_at > $now AND size(v.vector) = size($vector)
WITH v LIMIT $scan
WITH v, vector.similarity.cosine(v.vector, $vector) AS s
WHERE s IS NOT NULL
RETURN v.tenant_id AS tenant_id, v.session_id AS session_id, v.ns AS ns, v.id AS id, v.expires_at AS expires_at, 2 * s - 1 AS score
ORDER BY score DESC, id ASC
LIMIT $limit`;

const DELETE_SCOPE = `
MATCH (v:SessionMemoryVector {tenant_id: $tenant, session_id: $session, ns: $ns})
DELETE v`;

const DELETE_SESSION = `
MATCH (v:SessionMemoryVector {tenant_id: $tenant, session_id: $session})
WITH v LIMIT $batch
DELETE v
RETURN count(v) AS n`;

const SESSION_LEFT = "RETURN EXISTS { MATCH (:SessionMemoryVector {tenant_id: $tenant, session_id: $session}) } AS left";

const EXPIRED_LEFT = "RETURN EXISTS { MATCH (v:SessionMemoryVector) WHERE v.expires_at <= $now } AS left";

const DELETE_EXPIRED = `
MATCH (v:SessionMemoryVector)
WHERE v.expires_at <= $now
WITH v LIMIT $batch
DELETE v
RETURN count(v) AS n`;

export class Neo4jVectorIndex extends Neo4jStore implements SessionVectorIndex {
  async upsert(records: VectorRecord[]): Promise<void> {
    if (records.length === 0) return;
    const data = records.map((r) => ({
      tenant_id: r.key.tenant_id,
      session_id: r.key.session_id,
      ns: r.key.ns,
      model: r.model,
      id: r.id,
      vector: r.vector,
      expires_at: int(r.expires_at),
    }));
    await this.run("WRITE", async (tx) => {
      for (let i = 0; i < data.length; i += 500) await tx.run(UPSERT, { rows: data.slice(i, i + 500) });
    });
  }

  async search(key: ScopeKey, vector: number[], opts: { model: string; limit: number; now: number }): Promise<VectorHit[]> {
    if (vector.length === 0 || !vector.every(Number.isFinite)) return [];
    return this.run("READ", (tx) =>
      rows<VectorHit>(tx, SEARCH, {
        tenant: key.tenant_id,
        session: key.session_id,
        ns: key.ns,
        model: opts.model,
        now: int(opts.now),
        vector,
        scan: int(MAX_ENTITIES_PER_NAMESPACE),
        limit: int(Math.max(0, opts.limit)),
      }),
    );
  }

  async deleteScope(key: ScopeKey): Promise<void> {
    await this.run("WRITE", (tx) => tx.run(DELETE_SCOPE, { tenant: key.tenant_id, session: key.session_id, ns: key.ns }));
  }

  async deleteSession(tenantId: string, sessionId: string, batch: number): Promise<PurgeResult> {
    const p = { tenant: tenantId, session: sessionId };
    return this.run("WRITE", async (tx) => {
      const { n } = await one<{ n: number }>(tx, DELETE_SESSION, { ...p, batch: int(batch) });
      const { left } = await one<{ left: boolean }>(tx, SESSION_LEFT, p);
      return { removed: n, done: !left };
    });
  }

  async deleteExpired(now: number, batch: number): Promise<PurgeResult> {
    return this.run("WRITE", async (tx) => {
      const { n } = await one<{ n: number }>(tx, DELETE_EXPIRED, { now: int(now), batch: int(batch) });
      const { left } = await one<{ left: boolean }>(tx, EXPIRED_LEFT, { now: int(now) });
      return { removed: n, done: !left };
    });
  }
}
