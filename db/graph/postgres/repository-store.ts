/**
 * PostgreSQL RepositoryMemoryStore: `repo_nodes` (label `Node`) and
 * `repo_edges` (label `FACT` for memory facts). Writes lock the repository's
 * row in `repo_memory_locks` so the size limits hold under concurrency;
 * existing nodes and edges keep their first `origin_session_id`. The lock row
 * also holds the repository's revision (bumped by every locked write) and its
 * meta document (history, single-valued predicates; repository-history.ts). Reads see only
 * visible rows: a staged ingest's rows appear when its generation is published
 * (./generations.ts); a write here of a row that is staged makes it visible
 * (clears its tag).
 */
import { sql } from "kysely";
import { AppError, limitError } from "../../../core/errors";
import { MAX_REPO_NODES } from "../../../core/limits";
import { nameKey } from "../../../core/memory/ids";
import { checkRepoDoc, checkRepoFactQuota, edgeProps, forgetInDoc, readEdgeProps } from "../../../core/memory/repository-history";
import {
  FACT_LABEL,
  NODE_LABEL,
  type DurableTriple,
  type GraphStaging,
  type ForgetResult,
  type RepoChange,
  type RepoFact,
  type RepoMemoryDoc,
  type RepoMeta,
  type RepoNode,
  type RepositoryMemoryStore,
  type Subgraph,
} from "../../../core/memory/repository-store";
import { inTransaction } from "../../../core/transaction";
import type { Db, Tx } from "../../schema";
import { compactGeneration, openGeneration, publishGeneration, sourceEdgeIds, stageTriples, visibleRow } from "./generations";

const NODE_COLS = ["id", "label", "name", "type", "origin_session_id"] as const;
/**
 * Rows per INSERT statement. On PGlite a statement runs synchronously in the process's one thread
 * and every other statement waits for it: small statements keep each block short (the event loop
 * gets its turn between them, db/database.ts), at the price of a few more round trips.
 */
const ROWS_PER_STATEMENT = 100;

/** Tokens are matched case-insensitively against `name_key` (the lower-cased name); empty ones are dropped. */
function lowerTokens(tokens: string[]): string[] {
  return [...new Set(tokens.map((t) => t.toLowerCase()).filter((t) => t.length > 0))];
}

/** Takes the repository's lock row (created on first use), bumps its revision, and answers the state it held. */
async function lockRepo(tx: Tx, repoId: string): Promise<{ revision: number; doc: RepoMemoryDoc }> {
  await tx.insertInto("repo_memory_locks").values({ repo_id: repoId }).onConflict((oc) => oc.column("repo_id").doNothing()).execute();
  const row = await tx.selectFrom("repo_memory_locks").select(["revision", "doc"]).where("repo_id", "=", repoId).forUpdate().executeTakeFirstOrThrow();
  await tx.updateTable("repo_memory_locks").set({ revision: sql`revision + 1` }).where("repo_id", "=", repoId).execute();
  return { revision: Number(row.revision), doc: row.doc as RepoMemoryDoc };
}

export class PostgresRepositoryStore implements RepositoryMemoryStore<Tx> {
  readonly kind = "postgres";
  constructor(private readonly db: Db) {}

  inTransaction(tx: Tx): PostgresRepositoryStore {
    return new PostgresRepositoryStore(tx);
  }

  /** Staged graph writes (./generations.ts); on the root handle only — each step brings its own transaction. */
  get staging(): GraphStaging<Tx> | undefined {
    if (this.db.isTransaction) return undefined;
    const db = this.db;
    return {
      open: (repoId, fence, step, now, signal) => openGeneration(db, repoId, fence, step, now, signal),
      stage: stageTriples,
      sourceEdgeIds: (repoId, source) => sourceEdgeIds(db, repoId, source),
      publish: publishGeneration,
      compact: (gen) => compactGeneration(db, gen),
    };
  }

  async upsertFacts(repoId: string, triples: DurableTriple[], origin: { session_id: string | null }, now: number, change?: RepoChange): Promise<string[]> {
    const at = new Date(now);
    await inTransaction(this.db, async (tx) => {
      const held = await lockRepo(tx, repoId);
      if (change) {
        if (held.revision !== change.expectedRevision) throw new AppError("revision_conflict");
        checkRepoDoc(repoId, change.doc);
        const end = [...new Set(change.end.map((x) => x.fact_id))];
        if (end.length > 0) {
          const gone = await tx.deleteFrom("repo_edges").where("repo_id", "=", repoId).where("id", "in", end).executeTakeFirst();
          if (Number(gone.numDeletedRows) !== end.length) throw new AppError("revision_conflict");
        }
        await tx.updateTable("repo_memory_locks").set({ doc: JSON.stringify(change.doc) }).where("repo_id", "=", repoId).execute();
      }
      const nodes = new Map<string, { id: string; name: string; type: string }>();
      // The first spelling of a name wins, within a call as across calls (as in every adapter).
      for (const t of triples) for (const n of [t.subject, t.object]) if (!nodes.has(n.id)) nodes.set(n.id, n);
      const edges = new Map<string, DurableTriple>();
      for (const t of triples) if (!edges.has(t.fact_id)) edges.set(t.fact_id, t);
      // Rows already there are left as they are (ON CONFLICT DO NOTHING); the limits are checked on
      // the counts after the insert, and a refusal throws, which rolls the transaction back.
      const count = async (table: "repo_nodes" | "repo_edges") =>
        Number((await tx.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as("n")).where("repo_id", "=", repoId).executeTakeFirstOrThrow()).n);
      const nodeRows = [...nodes.values()].map((n) => ({ repo_id: repoId, id: n.id, label: NODE_LABEL, name: n.name, name_key: nameKey(n.name), type: n.type, props: "{}", origin_session_id: origin.session_id, embedding_model: null, embedding: null, created_at: at, updated_at: at }));
      let added = 0;
      for (let i = 0; i < nodeRows.length; i += ROWS_PER_STATEMENT) {
        const r = await tx.insertInto("repo_nodes").values(nodeRows.slice(i, i + ROWS_PER_STATEMENT)).onConflict((oc) => oc.columns(["repo_id", "id"]).doUpdateSet({ gen: null }).where("repo_nodes.gen", "is not", null)).returning("id").execute();
        added += r.length;
      }
      if (added > 0 && (await count("repo_nodes")) > MAX_REPO_NODES) throw limitError("repo_nodes", MAX_REPO_NODES);
      const props = (e: DurableTriple) => JSON.stringify(edgeProps(e, now));
      const edgeRows = [...edges.values()].map((e) => ({ repo_id: repoId, id: e.fact_id, label: FACT_LABEL, src: e.subject.id, predicate: e.predicate, dst: e.object.id, props: props(e), origin_session_id: origin.session_id, created_at: at }));
      added = 0;
      for (let i = 0; i < edgeRows.length; i += ROWS_PER_STATEMENT) {
        const r = await tx.insertInto("repo_edges").values(edgeRows.slice(i, i + ROWS_PER_STATEMENT)).onConflict((oc) => oc.columns(["repo_id", "id"]).doUpdateSet({ gen: null }).where("repo_edges.gen", "is not", null)).returning("id").execute();
        added += r.length;
      }
      if (added > 0 || change) checkRepoFactQuota(await count("repo_edges"), change ? change.doc : held.doc);
    });
    return triples.map((t) => t.fact_id);
  }

  async searchNodes(repoId: string, tokens: string[], limit: number): Promise<RepoNode[]> {
    let q = this.db.selectFrom("repo_nodes as n").select(NODE_COLS).where("repo_id", "=", repoId).where(visibleRow("n"));
    // Literal, case-insensitive substring match: strpos, so `%` and `_` in a token are not wildcards.
    for (const t of lowerTokens(tokens)) q = q.where(sql<boolean>`strpos(name_key, ${t}) > 0`);
    return q.orderBy("name_key").limit(limit).execute();
  }

  async querySubgraph(repoId: string, nodeId: string, depth: number, limit: number): Promise<Subgraph> {
    const root = await this.db.selectFrom("repo_nodes as n").select(NODE_COLS).where("repo_id", "=", repoId).where("id", "=", nodeId).where(visibleRow("n")).executeTakeFirst();
    if (!root) return { nodes: [], edges: [] };
    const seen = new Map<string, RepoNode>([[root.id, root]]);
    const edges = new Map<string, Subgraph["edges"][number]>();
    let frontier = [root.id];
    for (let d = 0; d < depth && frontier.length > 0 && edges.size < limit; d++) {
      const rows = await this.db
        .selectFrom("repo_edges as e")
        .select(["id", "label", "src", "predicate", "dst", "origin_session_id"])
        .where("repo_id", "=", repoId)
        .where(visibleRow("e"))
        .where((eb) => eb.or([eb("src", "in", frontier), eb("dst", "in", frontier)]))
        .orderBy("id")
        .limit(limit - edges.size)
        .execute();
      const next: string[] = [];
      for (const e of rows) {
        if (edges.has(e.id)) continue;
        edges.set(e.id, e);
        for (const x of [e.src, e.dst]) if (!seen.has(x) && !next.includes(x)) next.push(x);
      }
      if (next.length > 0) {
        for (const n of await this.db.selectFrom("repo_nodes as n").select(NODE_COLS).where("repo_id", "=", repoId).where("id", "in", next).where(visibleRow("n")).execute()) seen.set(n.id, n);
      }
      frontier = next;
    }
    return { nodes: [...seen.values()], edges: [...edges.values()] };
  }

  private factQuery(repoId: string) {
    return this.db
      .selectFrom("repo_edges as e")
      .innerJoin("repo_nodes as s", (j) => j.onRef("s.repo_id", "=", "e.repo_id").onRef("s.id", "=", "e.src"))
      .innerJoin("repo_nodes as o", (j) => j.onRef("o.repo_id", "=", "e.repo_id").onRef("o.id", "=", "e.dst"))
      .select(["e.id", "e.predicate", "e.props", "e.origin_session_id", "s.id as s_id", "s.name as s_name", "s.type as s_type", "o.id as o_id", "o.name as o_name", "o.type as o_type"])
      .where("e.repo_id", "=", repoId)
      .where("e.label", "=", FACT_LABEL)
      .where(visibleRow("e"))
      .where(visibleRow("s"))
      .where(visibleRow("o"));
  }

  private static toFact(r: { id: string; predicate: string; props: Record<string, unknown>; origin_session_id: string | null; s_id: string; s_name: string; s_type: string; o_id: string; o_name: string; o_type: string }): RepoFact {
    return {
      fact_id: r.id,
      subject: { id: r.s_id, name: r.s_name, type: r.s_type },
      predicate: r.predicate,
      object: { id: r.o_id, name: r.o_name, type: r.o_type },
      origin_session_id: r.origin_session_id,
      ...readEdgeProps(r.props),
    };
  }

  async factsMatching(repoId: string, tokens: string[], limit: number): Promise<RepoFact[]> {
    const wanted = lowerTokens(tokens);
    if (wanted.length === 0) return [];
    const rows = await this.factQuery(repoId)
      .where((eb) => eb.or(wanted.flatMap((t) => [eb(sql<number>`strpos(s.name_key, ${t})`, ">", 0), eb(sql<number>`strpos(o.name_key, ${t})`, ">", 0)])))
      .orderBy("e.id")
      .limit(limit)
      .execute();
    return rows.map(PostgresRepositoryStore.toFact);
  }

  async factsTouching(repoId: string, nodeIds: string[], limit: number): Promise<RepoFact[]> {
    if (nodeIds.length === 0) return [];
    const rows = await this.factQuery(repoId)
      .where((eb) => eb.or([eb("e.src", "in", nodeIds), eb("e.dst", "in", nodeIds)]))
      .orderBy("e.id")
      .limit(limit)
      .execute();
    return rows.map(PostgresRepositoryStore.toFact);
  }

  async nodesMissingEmbedding(repoId: string, model: string, limit: number): Promise<RepoNode[]> {
    return this.db
      .selectFrom("repo_nodes as n")
      .select(NODE_COLS)
      .where("repo_id", "=", repoId)
      .where(visibleRow("n"))
      .where((eb) => eb.or([eb("embedding_model", "is", null), eb("embedding_model", "<>", model)]))
      .orderBy("created_at")
      .orderBy("id")
      .limit(limit)
      .execute();
  }

  async setEmbeddings(repoId: string, model: string, vectors: Array<{ id: string; vector: number[] }>): Promise<void> {
    if (vectors.length === 0) return;
    await inTransaction(this.db, async (tx) => {
      for (const v of vectors) {
        await tx.updateTable("repo_nodes").set({ embedding_model: model, embedding: sql`${v.vector}::double precision[]` as never, updated_at: new Date() }).where("repo_id", "=", repoId).where("id", "=", v.id).execute();
      }
    });
  }

  async loadMeta(repoId: string): Promise<RepoMeta> {
    const row = await this.db.selectFrom("repo_memory_locks").select(["revision", "doc"]).where("repo_id", "=", repoId).executeTakeFirst();
    return row ? { revision: Number(row.revision), doc: row.doc as RepoMemoryDoc } : { revision: 0, doc: {} };
  }

  async factsSelected(repoId: string, sel: { ids: string[]; subjects: string[]; predicates: string[] }, limit: number): Promise<RepoFact[]> {
    const slots = sel.subjects.length > 0 && sel.predicates.length > 0;
    if (sel.ids.length > 0 || slots) {
      const rows = await this.factQuery(repoId)
        .where((eb) =>
          eb.or([
            ...(sel.ids.length > 0 ? [eb("e.id", "in", sel.ids)] : []),
            ...(slots ? [eb.and([eb("e.src", "in", sel.subjects), eb("e.predicate", "in", sel.predicates)])] : []),
          ]),
        )
        .orderBy("e.id")
        .limit(limit)
        .execute();
      return rows.map(PostgresRepositoryStore.toFact);
    }
    return [];
  }

  async factsPage(repoId: string, after: string, limit: number): Promise<RepoFact[]> {
    const rows = await this.factQuery(repoId).where("e.id", ">", after).orderBy("e.id").limit(limit).execute();
    return rows.map(PostgresRepositoryStore.toFact);
  }

  async forgetOrigin(repoId: string, sessionId: string): Promise<ForgetResult> {
    return inTransaction(this.db, async (tx) => {
      const held = await lockRepo(tx, repoId);
      const f = forgetInDoc(held.doc, sessionId);
      if (f.changed) await tx.updateTable("repo_memory_locks").set({ doc: JSON.stringify(f.doc) }).where("repo_id", "=", repoId).execute();
      const edges = await tx.deleteFrom("repo_edges").where("repo_id", "=", repoId).where("origin_session_id", "=", sessionId).returning("id").execute();
      const nodes = await tx
        .deleteFrom("repo_nodes as n")
        .where("n.repo_id", "=", repoId)
        .where("n.origin_session_id", "=", sessionId)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom("repo_edges as e").select("e.id").whereRef("e.repo_id", "=", "n.repo_id").where((eb) => eb.or([eb("e.src", "=", eb.ref("n.id")), eb("e.dst", "=", eb.ref("n.id"))])))),
        )
        .executeTakeFirst();
      await tx.updateTable("repo_nodes").set({ origin_session_id: null }).where("repo_id", "=", repoId).where("origin_session_id", "=", sessionId).execute();
      return { edges: edges.length, nodes: Number(nodes.numDeletedRows), history: f.removed, fact_ids: [...new Set([...edges.map((e) => e.id), ...f.removedIds])] };
    });
  }

  async pruneSource(repoId: string, source: string, keep: string[], orphanTypePrefix: string): Promise<{ edges: number; nodes: number }> {
    return inTransaction(this.db, async (tx) => {
      await lockRepo(tx, repoId);
      const edges = await tx
        .deleteFrom("repo_edges")
        .where("repo_id", "=", repoId)
        .where(sql<boolean>`props->>'source' = ${source}`)
        .where(sql<boolean>`not (id = any(${keep}::text[]))`)
        .executeTakeFirst();
      const nodes = await tx
        .deleteFrom("repo_nodes as n")
        .where("n.repo_id", "=", repoId)
        .where(sql<boolean>`starts_with(n.type, ${orphanTypePrefix})`)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom("repo_edges as e").select("e.id").whereRef("e.repo_id", "=", "n.repo_id").where((eb) => eb.or([eb("e.src", "=", eb.ref("n.id")), eb("e.dst", "=", eb.ref("n.id"))])))),
        )
        .executeTakeFirst();
      return { edges: Number(edges.numDeletedRows), nodes: Number(nodes.numDeletedRows) };
    });
  }

  async embeddings(repoId: string, model: string, limit: number): Promise<Array<{ id: string; vector: number[] }>> {
    const rows = await this.db
      .selectFrom("repo_nodes as n")
      .select(["id", "embedding"])
      .where("repo_id", "=", repoId)
      .where(visibleRow("n"))
      .where("embedding_model", "=", model)
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.filter((r) => r.embedding !== null).map((r) => ({ id: r.id, vector: r.embedding!.map(Number) }));
  }

  /**
   * The `limit` nodes of `model` nearest to `vector` by exact cosine, computed in SQL over the
   * float4 arrays (at most `scan` rows): only the best hits leave the database.
   */
  async nearestEmbeddings(repoId: string, model: string, vector: number[], limit: number, scan: number): Promise<Array<{ id: string; score: number }>> {
    if (vector.length === 0) return [];
    const r = await sql<{ id: string; score: number | string }>`
      select n.id, case when s.na = 0 or s.nb = 0 then 0 else s.dot / sqrt(s.na * s.nb) end as score
      from (select id, embedding from repo_nodes v where repo_id = ${repoId} and embedding_model = ${model} and ${visibleRow("v")}
              and cardinality(embedding) = ${vector.length} order by id limit ${scan}) n
      cross join lateral (
        select sum(x.a * x.b) as dot, sum(x.a * x.a) as na, sum(x.b * x.b) as nb
        from unnest(n.embedding, ${vector}::real[]) as x(a, b)
      ) s
      order by score desc, n.id
      limit ${limit}`.execute(this.db);
    return r.rows.map((row) => ({ id: row.id, score: Number(row.score) }));
  }
}
