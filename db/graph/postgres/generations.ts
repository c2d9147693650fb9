/**
 * Staged ingest writes on the relational repository store (PostgreSQL, PGlite). An ingest's graph
 * is thousands of rows; written inside the job's fenced finish it held the one PGlite connection
 * for seconds, and every other statement (a job read, a lease renewal) waited. Instead:
 *
 *   open     — the job attempt takes its repository's one generation slot (repo_graph_gens, unique
 *              per repository), naming its job id and lease token. A slot left by an earlier
 *              attempt is finished first, in bounded batches: a published one is compacted, an
 *              unpublished one whose job no longer runs under its token (lost lease, crash,
 *              failure) is discarded. A slot whose job still runs under its token is waited for.
 *   stage    — the rows the new graph adds are inserted tagged `gen = <its id>`, in short
 *              transactions of their own (the caller's fenced step: each first proves the job row
 *              is still held under the token). Readers never see a tagged row of an unpublished
 *              generation (`visibleRow`).
 *   publish  — inside the job's fenced finish: one row update marks the generation published, so
 *              every staged row becomes visible in that commit, plus the prune of what the new graph
 *              no longer has (bounded by the change, not by the graph).
 *   compact  — afterwards, in bounded batches: the tags are cleared and the slot row deleted.
 *
 * Invariants: a reader sees the graph before the publish or after it, never part of a generation;
 * a writer that lost its lease cannot publish (the finish is fenced) and cannot stage (each step is
 * fenced); its staged rows, and a crashed attempt's, are deleted by the next attempt or by the
 * cleanup sweep (`sweepGenerations`). A plain (visible) write of a row that is staged clears its
 * tag: the row then exists whatever becomes of the generation.
 */
import { randomUUID } from "node:crypto";
import { sql, type RawBuilder } from "kysely";
import { limitError } from "../../../core/errors";
import { MAX_REPO_FACTS, MAX_REPO_NODES } from "../../../core/limits";
import { nameKey } from "../../../core/memory/ids";
import { FACT_LABEL, NODE_LABEL, type DurableTriple } from "../../../core/memory/repository-store";
import type { Db, Tx } from "../../schema";

/**
 * Rows per statement and per compaction batch. On PGlite each statement blocks the process's one
 * thread: an edge row costs two foreign-key checks and three index entries (a 100-row insert took
 * 200-600 ms on a loaded 2-core machine), so statements stay small (50 rows).
 */
export const STAGE_ROWS_PER_STATEMENT = 50;
export const GEN_BATCH = 100;
/** How long `open` waits between looks at a slot another live attempt holds. */
const SLOT_WAIT_MS = 250;

export interface GenFence {
  jobId: string;
  token: string;
}

/** SQL: the row under `alias` is visible — untagged, or tagged with a published generation. */
export function visibleRow(alias: string): RawBuilder<boolean> {
  const gen = sql.ref(`${alias}.gen`);
  return sql<boolean>`(${gen} is null or ${gen} in (select g.id from repo_graph_gens g where g.published_at is not null))`;
}

const GRAPH_TABLES = ["repo_edges", "repo_nodes", "repo_ingest_files"] as const;

/** Clears the tag of at most `limit` rows per table of a published generation; true when none is left. */
async function compactBatch(db: Db, gen: string, limit: number): Promise<boolean> {
  let left = false;
  for (const t of GRAPH_TABLES) {
    const r = await sql`update ${sql.table(t)} set gen = null where ctid = any(array(select ctid from ${sql.table(t)} where gen = ${gen} limit ${limit}))`.execute(db);
    if (Number(r.numAffectedRows ?? 0) >= limit) left = true;
  }
  return !left;
}

/** Deletes at most `limit` rows per table of an unpublished generation (edges before the nodes they touch); true when none is left. */
async function discardBatch(db: Db, gen: string, limit: number): Promise<boolean> {
  for (const t of GRAPH_TABLES) {
    const r = await sql`delete from ${sql.table(t)} where ctid = any(array(select ctid from ${sql.table(t)} where gen = ${gen} limit ${limit}))`.execute(db);
    // The nodes only once no edge of the generation is left to point at them.
    if (Number(r.numAffectedRows ?? 0) >= limit) return false;
  }
  return true;
}

interface SlotRow {
  id: string;
  job_id: string;
  lease_token: string;
  published: boolean;
  live: boolean;
}

const slotQuery = (db: Db) =>
  sql<SlotRow>`
    select g.id, g.job_id, g.lease_token, g.published_at is not null as published,
           coalesce(j.status = 'running' and j.lease_token = g.lease_token, false) as live
      from repo_graph_gens g left join jobs j on j.id = g.job_id`.execute(db);

/**
 * Finishes one generation that no live attempt stages into: compacts it (published) or discards it
 * (abandoned), `batches` batches at most; true when its slot row is gone.
 */
async function finishSlot(db: Db, slot: SlotRow, batches: number): Promise<boolean> {
  for (let i = 0; i < batches; i++) {
    const done = slot.published ? await compactBatch(db, slot.id, GEN_BATCH) : await discardBatch(db, slot.id, GEN_BATCH);
    if (done) {
      stagedTotals.delete(slot.id);
      // Only the row that was looked at: a slot published meanwhile is compacted, never discarded.
      await db.deleteFrom("repo_graph_gens").where("id", "=", slot.id).where(slot.published ? sql<boolean>`published_at is not null` : sql<boolean>`published_at is null`).execute();
      return true;
    }
  }
  return false;
}

/**
 * Takes the repository's generation slot for this attempt (or finds the one it already holds):
 * earlier slots are compacted or discarded first; a slot another live attempt holds is waited for.
 * `step` runs the claim in the caller's fenced transaction.
 */
export async function openGeneration(db: Db, repoId: string, fence: GenFence, step: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>, now: () => Date, signal?: AbortSignal): Promise<string> {
  for (;;) {
    signal?.throwIfAborted();
    const slot = (await sql<SlotRow>`
      select g.id, g.job_id, g.lease_token, g.published_at is not null as published,
             coalesce(j.status = 'running' and j.lease_token = g.lease_token, false) as live
        from repo_graph_gens g left join jobs j on j.id = g.job_id
       where g.repo_id = ${repoId}`.execute(db)).rows[0];
    if (slot && slot.job_id === fence.jobId && slot.lease_token === fence.token && !slot.published) return slot.id;
    if (slot && slot.live && !slot.published) {
      await new Promise((r) => setTimeout(r, SLOT_WAIT_MS));
      continue;
    }
    if (slot) {
      await finishSlot(db, slot, Number.POSITIVE_INFINITY);
      continue;
    }
    const id = randomUUID();
    const taken = await step(async (tx) => {
      const r = await tx
        .insertInto("repo_graph_gens")
        .values({ id, repo_id: repoId, job_id: fence.jobId, lease_token: fence.token, created_at: now() })
        .onConflict((oc) => oc.column("repo_id").doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
    });
    if (taken) return id;
  }
}

/**
 * Rows of the repository (visible and staged) per generation as this process last counted them
 * plus what its stage steps added since: the size limits are checked against it without a count
 * over the whole repository in every step (the publish counts once more).
 */
const stagedTotals = new Map<string, { nodes: number; edges: number }>();

async function countRows(tx: Tx, table: "repo_nodes" | "repo_edges", repoId: string): Promise<number> {
  return Number((await tx.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as("n")).where("repo_id", "=", repoId).executeTakeFirstOrThrow()).n);
}

/**
 * Stages what `triples` add to the repository graph under `gen`, in the caller's (fenced, short)
 * transaction; rows already there stay as they are. The size limits count every row of the
 * repository, staged ones included, as the plain write does.
 */
export async function stageTriples(tx: Tx, repoId: string, gen: string, triples: DurableTriple[], origin: { session_id: string | null }, now: number): Promise<void> {
  const at = new Date(now);
  const nodes = new Map<string, { id: string; name: string; type: string }>();
  for (const t of triples) for (const n of [t.subject, t.object]) if (!nodes.has(n.id)) nodes.set(n.id, n);
  const edges = new Map<string, DurableTriple>();
  for (const t of triples) if (!edges.has(t.fact_id)) edges.set(t.fact_id, t);
  let totals = stagedTotals.get(gen);
  if (!totals) {
    totals = { nodes: await countRows(tx, "repo_nodes", repoId), edges: await countRows(tx, "repo_edges", repoId) };
    stagedTotals.set(gen, totals);
  }
  const nodeRows = [...nodes.values()].map((n) => ({ repo_id: repoId, id: n.id, label: NODE_LABEL, name: n.name, name_key: nameKey(n.name), type: n.type, props: "{}", origin_session_id: origin.session_id, embedding_model: null, embedding: null, created_at: at, updated_at: at, gen }));
  let nodesAdded = 0;
  for (let i = 0; i < nodeRows.length; i += STAGE_ROWS_PER_STATEMENT) {
    const r = await tx.insertInto("repo_nodes").values(nodeRows.slice(i, i + STAGE_ROWS_PER_STATEMENT)).onConflict((oc) => oc.columns(["repo_id", "id"]).doNothing()).executeTakeFirst();
    nodesAdded += Number(r.numInsertedOrUpdatedRows ?? 0);
  }
  if (totals.nodes + nodesAdded > MAX_REPO_NODES) throw limitError("repo_nodes", MAX_REPO_NODES);
  const props = (e: DurableTriple) => JSON.stringify(e.source ? { source: e.source } : {});
  const edgeRows = [...edges.values()].map((e) => ({ repo_id: repoId, id: e.fact_id, label: FACT_LABEL, src: e.subject.id, predicate: e.predicate, dst: e.object.id, props: props(e), origin_session_id: origin.session_id, created_at: at, gen }));
  let added = 0;
  for (let i = 0; i < edgeRows.length; i += STAGE_ROWS_PER_STATEMENT) {
    const r = await tx.insertInto("repo_edges").values(edgeRows.slice(i, i + STAGE_ROWS_PER_STATEMENT)).onConflict((oc) => oc.columns(["repo_id", "id"]).doNothing()).executeTakeFirst();
    added += Number(r.numInsertedOrUpdatedRows ?? 0);
  }
  if (totals.edges + added > MAX_REPO_FACTS) throw limitError("repo_facts", MAX_REPO_FACTS);
  // A step whose commit then fails counts twice when retried: the check errs on the safe side.
  totals.nodes += nodesAdded;
  totals.edges += added;
}

/** The ids of the visible edges written with `source` (what a re-ingest may prune). */
export async function sourceEdgeIds(db: Db, repoId: string, source: string): Promise<string[]> {
  const rows = await db
    .selectFrom("repo_edges as e")
    .select("e.id")
    .where("e.repo_id", "=", repoId)
    .where(sql<boolean>`e.props->>'source' = ${source}`)
    .where(visibleRow("e"))
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The fenced finish's part, after the job's fenced finishJob in the same transaction: marks `gen`
 * published — if it is still this attempt's and its job row is now `succeeded` — and removes the `gone`
 * edges of `source` and the nodes of `orphanTypePrefix` they leave without an edge. False: the
 * generation is no longer this attempt's (nothing was written).
 */
export async function publishGeneration(
  tx: Tx,
  repoId: string,
  gen: string,
  fence: GenFence,
  prune: { source: string; gone: string[]; orphanTypePrefix: string },
  now: Date,
): Promise<{ published: boolean; edges: number; nodes: number }> {
  await tx.insertInto("repo_memory_locks").values({ repo_id: repoId }).onConflict((oc) => oc.column("repo_id").doNothing()).execute();
  await tx.selectFrom("repo_memory_locks").select("repo_id").where("repo_id", "=", repoId).forUpdate().execute();
  const r = await tx
    .updateTable("repo_graph_gens")
    .set({ published_at: now })
    .where("id", "=", gen)
    .where("repo_id", "=", repoId)
    .where("job_id", "=", fence.jobId)
    .where("lease_token", "=", fence.token)
    .where("published_at", "is", null)
    // The job row was finished by this transaction's fenced finish (which locks it): a writer whose finish failed publishes nothing.
    .where(({ exists, selectFrom }) => exists(selectFrom("jobs as j").select("j.id").where("j.id", "=", fence.jobId).where("j.status", "=", "succeeded")))
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return { published: false, edges: 0, nodes: 0 };
  stagedTotals.delete(gen);
  // The limits once more over what is now visible (plain writes may have landed between the steps).
  if ((await countRows(tx, "repo_nodes", repoId)) > MAX_REPO_NODES) throw limitError("repo_nodes", MAX_REPO_NODES);
  if ((await countRows(tx, "repo_edges", repoId)) > MAX_REPO_FACTS) throw limitError("repo_facts", MAX_REPO_FACTS);
  let edges = 0;
  const touched = new Set<string>();
  for (let i = 0; i < prune.gone.length; i += GEN_BATCH) {
    const rows = await tx
      .deleteFrom("repo_edges")
      .where("repo_id", "=", repoId)
      .where("id", "in", prune.gone.slice(i, i + GEN_BATCH))
      .where(sql<boolean>`props->>'source' = ${prune.source}`)
      .returning(["src", "dst"])
      .execute();
    edges += rows.length;
    for (const e of rows) touched.add(e.src).add(e.dst);
  }
  let nodes = 0;
  const candidates = [...touched];
  for (let i = 0; i < candidates.length; i += GEN_BATCH) {
    const d = await tx
      .deleteFrom("repo_nodes as n")
      .where("n.repo_id", "=", repoId)
      .where("n.id", "in", candidates.slice(i, i + GEN_BATCH))
      .where(sql<boolean>`starts_with(n.type, ${prune.orphanTypePrefix})`)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom("repo_edges as e").select("e.id").whereRef("e.repo_id", "=", "n.repo_id").where((eb) => eb.or([eb("e.src", "=", eb.ref("n.id")), eb("e.dst", "=", eb.ref("n.id"))])))),
      )
      .executeTakeFirst();
    nodes += Number(d.numDeletedRows);
  }
  return { published: true, edges, nodes };
}

/** After a publish: clears the generation's tags in bounded batches and frees the slot (best effort; the sweep finishes what is left). */
export async function compactGeneration(db: Db, gen: string, batches = Number.POSITIVE_INFINITY): Promise<boolean> {
  const slot = (await sql<SlotRow>`select id, job_id, lease_token, published_at is not null as published, false as live from repo_graph_gens where id = ${gen}`.execute(db)).rows[0];
  if (!slot) return true;
  if (!slot.published) return false;
  return finishSlot(db, slot, batches);
}

/**
 * The cleanup sweep's part: every slot no live attempt stages into — published ones compacted,
 * abandoned ones (the job ended, or runs under another token) discarded — `limit` rows per table
 * per batch, a few batches each. Done when no such slot is left.
 */
export async function sweepGenerations(db: Db, limit: number): Promise<{ done: boolean; removed: number }> {
  const slots = (await slotQuery(db)).rows.filter((s) => s.published || !s.live);
  let done = true;
  for (const s of slots) {
    let finished = false;
    for (let i = 0; i < 4 && !finished; i++) {
      finished = s.published ? await compactBatch(db, s.id, limit) : await discardBatch(db, s.id, limit);
    }
    if (finished) await db.deleteFrom("repo_graph_gens").where("id", "=", s.id).where(s.published ? sql<boolean>`published_at is not null` : sql<boolean>`published_at is null`).execute();
    else done = false;
  }
  return { done, removed: slots.length };
}
