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
 * `run` only reads (the snapshot) and computes (the graph); every write — the
 * graph in chunks, the prune, the embedding refresh child job, the consumed
 * upload — happens in `persist`, inside the runner's lease-fenced, rechecked
 * transaction (workers/fenced-stores.ts): a worker that lost its lease writes
 * nothing. Chunks are idempotent (ids are content hashes).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { AppError } from "../../core/errors";
import type { Identity } from "../../core/execution/identity";
import { extractArchive, type Extracted } from "../../core/ingest/archive";
import { buildCodeGraph, CODE_TYPE_PREFIX, goModuleOf, INGEST_SOURCE } from "../../core/ingest/graph";
import { parseChanged, readParseCache, writeParseCache } from "../../core/ingest/incremental";
import { SYNTAX_PARSER } from "../../core/ingest/syntax";
import { checkGitUrl, resolveLocalSource } from "../../core/ingest/source";
import { findUpload, markIngested } from "../../core/ingest/uploads";
import { EMBEDDING_KIND } from "../../core/jobs/embedding";
import { INGEST_JOB, type IngestParams, type IngestSourceConfig } from "../../core/jobs/ingest";
import { walkSnapshot } from "../../core/ingest/walk";
import { INGEST_WRITE_CHUNK } from "../../core/limits";
import type { Db } from "../../db/schema";
import type { JobQueue } from "../../queues/submit";
import { defineRepoHandler, type JobHandler } from "../handler";
import { submitChildJob } from "./child-job";
import { cloneSnapshot } from "./git-snapshot";

export interface IngestDeps {
  config: IngestSourceConfig;
  queue: () => JobQueue;
}

interface Snapshot {
  dir: string;
  archive?: Extracted;
  dispose(): Promise<void>;
}

/** The snapshot's directory, by source; the same rules as at submission, checked again with the job's identity. */
async function openSnapshot(deps: IngestDeps, params: IngestParams, ctx: { db: Db; identity: Identity; repoId: string; now: Date; signal: AbortSignal }): Promise<Snapshot> {
  if (params.path !== undefined) return { dir: await resolveLocalSource(params.path, deps.config.INGEST_ALLOWED_ROOTS), dispose: async () => undefined };
  if (params.git_url !== undefined) return cloneSnapshot(checkGitUrl(params.git_url, deps.config.INGEST_GIT_ALLOWED), params.ref, ctx.identity, ctx.signal);
  const upload = await findUpload(ctx.db, ctx.identity, ctx.repoId, params.upload_id!, ctx.now);
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

export function ingestHandler(deps: IngestDeps): JobHandler<IngestParams> {
  return defineRepoHandler({
    ...INGEST_JOB,
    async run({ params, auth, signal, clock, db, progress }) {
      const { identity, repo } = auth;
      const snapshot = await openSnapshot(deps, params, { db, identity, repoId: repo.repoId, now: clock.now(), signal });
      try {
        const walk = await walkSnapshot(snapshot.dir, undefined, signal);
        const cache = await readParseCache(db, repo.repoId);
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
        return {
          result,
          persist: async (tx, stores) => {
            const store = stores.repository;
            if (!store) throw new AppError("unavailable", { message: "Repository memory is not configured." });
            for (let i = 0; i < triples.length; i += INGEST_WRITE_CHUNK) await store.upsertFacts(repo.repoId, triples.slice(i, i + INGEST_WRITE_CHUNK), origin, at);
            const pruned = await store.pruneSource(repo.repoId, INGEST_SOURCE, triples.map((t) => t.fact_id), CODE_TYPE_PREFIX);
            await writeParseCache(tx, repo.repoId, inc, clock.now());
            await submitChildJob(deps.queue(), tx, auth, { kind: EMBEDDING_KIND, params: {}, repo: repo.repoId });
            // Consumed only by a successful, rechecked ingest (a retry can still read it); then kept as the repository's last snapshot.
            if (params.upload_id !== undefined) await markIngested(tx, repo.repoId, params.upload_id, clock.now());
            return { result: { ...result, pruned } };
          },
        };
      } finally {
        await snapshot.dispose();
      }
    },
  });
}
