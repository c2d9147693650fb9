/**
 * The ingest pool's kind (WRK-2): a repository snapshot — a local directory
 * under INGEST_ALLOWED_ROOTS, a shallow clone of an allowed git URL, or an
 * archive this session uploaded (core/ingest/uploads.ts, extracted by
 * core/ingest/archive.ts) — walked within the INGEST_* limits and the
 * snapshot's .gitignore rules, parsed with tree-sitter (only files whose
 * content hash changed since the last ingest: core/ingest/incremental.ts)
 * into the repository code graph (core/ingest) and written through the
 * RepositoryMemoryStore with the job's primary session as origin. A re-ingest
 * prunes the previous snapshot's code edges and orphaned code nodes. Progress
 * (files done of total) is recorded on the job row while it parses.
 *
 * `run` reads (the snapshot) and computes (the graph). Every write is fenced
 * by the job's lease (workers/fenced-stores.ts), so a worker that lost its
 * lease makes nothing visible:
 * - on a store with staged writes (PostgreSQL, PGlite: db/graph/postgres/generations.ts)
 *   `run` stages the graph's new rows and the new paths' parse-cache rows in
 *   short fenced transactions of their own, invisible to every reader — other
 *   statements (a job read, a lease renewal) run in between, which matters on
 *   PGlite's one connection — and `persist`, inside the runner's fenced,
 *   rechecked finish, publishes them with one row update and prunes what the
 *   new graph lost (bounded by the change);
 * - on another store (Neo4j, HugeGraph, in memory) `persist` writes the graph
 *   in chunks, idempotent (ids are content hashes), then prunes.
 * Either way the prune, the changed parse-cache rows, the embedding refresh
 * child job and the consumed upload are written in `persist`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { AppError } from "../../core/errors";
import type { Identity } from "../../core/execution/identity";
import { extractArchive, type Extracted } from "../../core/ingest/archive";
import { buildCodeGraph, CODE_TYPE_PREFIX, goModuleOf, INGEST_SOURCE } from "../../core/ingest/graph";
import { parseChanged, readParseCache, stageParseCache, writeParseCache } from "../../core/ingest/incremental";
import { SYNTAX_PARSER } from "../../core/ingest/syntax";
import { checkGitUrl, resolveLocalSource } from "../../core/ingest/source";
import { findUpload, markIngested } from "../../core/ingest/uploads";
import { EMBEDDING_KIND } from "../../core/jobs/embedding";
import { INGEST_JOB, type IngestParams, type IngestSourceConfig } from "../../core/jobs/ingest";
import { walkSnapshot } from "../../core/ingest/walk";
import { INGEST_WRITE_CHUNK } from "../../core/limits";
import type { RepositoryMemoryStore } from "../../core/memory/repository-store";
import type { Stores } from "../../core/stores";
import { setTimeout as sleep } from "node:timers/promises";
import { giveTurn } from "../../core/turn";
import type { Tx } from "../../db/schema";
import type { JobQueue } from "../../queues/submit";
import { fencedStep, type JobFence } from "../fenced-stores";
import { defineRepoHandler, type JobHandler } from "../handler";
import { submitChildJob } from "./child-job";
import { cloneSnapshot } from "./git-snapshot";

export interface IngestDeps {
  config: IngestSourceConfig;
  queue: () => JobQueue;
  /** The uploaded archives and the parse cache. */
  stores: Pick<Stores<Tx>, "uploads" | "parseCache">;
  /**
   * The repository store the runner hands `persist` (the same one): when it can stage
   * (`staging`), the graph is staged in `run` and published in `persist`.
   */
  repository?: RepositoryMemoryStore;
}

interface Snapshot {
  dir: string;
  archive?: Extracted;
  dispose(): Promise<void>;
}

/** The snapshot's directory, by source; the same rules as at submission, checked again with the job's identity. */
async function openSnapshot(deps: IngestDeps, params: IngestParams, ctx: { identity: Identity; repoId: string; now: Date; signal: AbortSignal }): Promise<Snapshot> {
  if (params.path !== undefined) return { dir: await resolveLocalSource(params.path, deps.config.INGEST_ALLOWED_ROOTS), dispose: async () => undefined };
  if (params.git_url !== undefined) return cloneSnapshot(checkGitUrl(params.git_url, deps.config.INGEST_GIT_ALLOWED), params.ref, ctx.identity, ctx.signal);
  const upload = await findUpload(deps.stores.uploads, ctx.identity, ctx.repoId, params.upload_id!, ctx.now);
  const base = await mkdtemp(path.join(tmpdir(), "codesynapse-upload-"));
  const dispose = () => rm(base, { recursive: true, force: true });
  try {
    const archive = await extractArchive(upload.content, upload.format, base, ctx.signal);
    return { dir: base, archive, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}

/** How long one staging step (one short transaction) should take: about the longest a job read waits for the one PGlite connection. */
const STEP_MS = 100;
/**
 * The smallest step. Much smaller steps cost far more than they save: on PGlite a run of 50-triple
 * steps took several times as long as the same rows in 400-triple steps (each statement of a small
 * step was slower, not just the commits), which stretches the whole ingest.
 */
const MIN_STEP = 100;
/**
 * The pause between two steps (ms). What queued for the one PGlite connection during a step runs
 * when it ends, but a request makes several statements in a row (authorize(), then its read) and
 * asks for the connection again a moment later: without a gap the next step takes it first and
 * the request waits out two steps (measured: a job read's worst wait 264–281 ms with 100 ms
 * steps). A pause a tenth of a step lets such a request finish between two steps, for about a
 * tenth more ingest time.
 */
const STEP_GAP_MS = 10;

/**
 * Calls `write` on consecutive slices of `items`, each slice sized from the last step's duration
 * so a step takes about STEP_MS (between MIN_STEP items and INGEST_WRITE_CHUNK), with STEP_GAP_MS
 * between two steps for the requests waiting on the database.
 */
async function inTimedSteps<T>(items: T[], signal: AbortSignal, write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  let size = MIN_STEP;
  for (let i = 0; i < items.length; ) {
    signal.throwIfAborted();
    const chunk = items.slice(i, i + size);
    const started = performance.now();
    await write(chunk);
    i += chunk.length;
    const took = Math.max(1, performance.now() - started);
    size = Math.min(INGEST_WRITE_CHUNK, Math.max(MIN_STEP, Math.round((size * STEP_MS) / took)));
    if (i < items.length) await sleep(STEP_GAP_MS);
    else await giveTurn();
  }
}

export function ingestHandler(deps: IngestDeps): JobHandler<IngestParams> {
  return defineRepoHandler({
    ...INGEST_JOB,
    async run({ job, params, auth, signal, clock, db, progress }) {
      const { uploads, parseCache } = deps.stores;
      const { identity, repo } = auth;
      const snapshot = await openSnapshot(deps, params, { identity, repoId: repo.repoId, now: clock.now(), signal });
      try {
        const walk = await walkSnapshot(snapshot.dir, undefined, signal);
        const cache = await readParseCache(parseCache, repo.repoId);
        const report = (done: number, total: number) => void progress?.(done, total);
        const inc = await parseChanged(walk.files, cache, { signal, progress: report });
        const files = inc.files;
        const goMod = walk.files.find((f) => f.path === "go.mod")?.text ?? null;
        const triples = await buildCodeGraph(repo.repoId, repo.repoName, files, goModuleOf(goMod));
        const nodes = new Set(triples.flatMap((t) => [t.subject.id, t.object.id]));
        const count = (predicate: string) => triples.filter((t) => t.predicate === predicate).length;
        const result = {
          source: params.path !== undefined ? "path" : params.git_url !== undefined ? "git" : "upload",
          ...(snapshot.archive ? { archive: snapshot.archive } : {}),
          parser: SYNTAX_PARSER,
          files: walk.files.length,
          parsed_files: files.filter((f) => f.parsed).length,
          // Incremental re-ingest: files parsed by this job, reused from the last ingest (same content hash), gone since.
          files_parsed: inc.parsedCount,
          files_unchanged: inc.unchangedCount,
          files_deleted: inc.deleted.length,
          files_ignored: walk.ignored,
          symbols: files.reduce((n, f) => n + (f.parsed?.symbols.length ?? 0), 0),
          bytes: walk.bytesRead,
          truncated: walk.truncated,
          nodes: nodes.size,
          edges: triples.length,
          imports: count("imports"),
          calls: count("calls"),
          references: count("references"),
        };
        const origin = { session_id: identity.session_id };
        const at = clock.now().getTime();
        const staging = deps.repository?.staging;
        if (staging && job.lease_token) {
          const fence: JobFence = { jobId: job.id, token: job.lease_token };
          const step = <T>(fn: (tx: Tx) => Promise<T>) => fencedStep(db, fence, fn);
          const gen = await staging.open(repo.repoId, fence, step, () => clock.now(), signal);
          // What the new graph no longer has: read after the slot is ours, so no other ingest publishes in between.
          const kept = new Set(triples.map((t) => t.fact_id));
          const gone = (await staging.sourceEdgeIds(repo.repoId, INGEST_SOURCE)).filter((id) => !kept.has(id));
          await inTimedSteps(triples, signal, (chunk) => step((tx) => staging.stage(tx, repo.repoId, gen, chunk, origin, at)));
          const known = new Set<string>();
          await inTimedSteps(inc.upserts, signal, async (chunk) => {
            for (const p of await step((tx) => stageParseCache(parseCache, tx, repo.repoId, gen, chunk, clock.now()))) known.add(p);
          });
          return {
            result,
            persist: async (tx) => {
              const p = await staging.publish(tx, repo.repoId, gen, fence, { source: INGEST_SOURCE, gone, orphanTypePrefix: CODE_TYPE_PREFIX }, clock.now());
              if (!p.published) throw new AppError("conflict", { message: "This ingest's staged graph is no longer its own." });
              // Only the cache rows that replace an existing path, and the removals: bounded by the change.
              await writeParseCache(parseCache, tx, repo.repoId, { upserts: inc.upserts.filter((u) => known.has(u.path)), deleted: inc.deleted }, clock.now());
              await submitChildJob(deps.queue(), tx, auth, job, { kind: EMBEDDING_KIND, params: {}, repo: repo.repoId });
              if (params.upload_id !== undefined) await markIngested(uploads, tx, repo.repoId, params.upload_id, clock.now());
              return { result: { ...result, pruned: { edges: p.edges, nodes: p.nodes } } };
            },
            // The tags of the published rows, cleared in bounded batches (a leftover is finished by the next ingest's open).
            afterCommit: async () => void (await staging.compact(gen)),
          };
        }
        return {
          result,
          persist: async (tx, stores) => {
            const store = stores.repository;
            if (!store) throw new AppError("unavailable", { message: "Repository memory is not configured." });
            for (let i = 0; i < triples.length; i += INGEST_WRITE_CHUNK) await store.upsertFacts(repo.repoId, triples.slice(i, i + INGEST_WRITE_CHUNK), origin, at);
            const pruned = await store.pruneSource(repo.repoId, INGEST_SOURCE, triples.map((t) => t.fact_id), CODE_TYPE_PREFIX);
            await writeParseCache(parseCache, tx, repo.repoId, inc, clock.now());
            await submitChildJob(deps.queue(), tx, auth, job, { kind: EMBEDDING_KIND, params: {}, repo: repo.repoId });
            // Consumed only by a successful, rechecked ingest (a retry can still read it); then kept as the repository's last snapshot.
            if (params.upload_id !== undefined) await markIngested(uploads, tx, repo.repoId, params.upload_id, clock.now());
            return { result: { ...result, pruned } };
          },
        };
      } finally {
        await snapshot.dispose();
      }
    },
  });
}
