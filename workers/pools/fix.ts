/**
 * The fix pool's kind (WRK-5): a patch proposal — a unified diff — for a
 * described problem in an ingested snapshot (`path`, or the snapshot the
 * repository was last ingested from: its directory, or its uploaded archive while
 * that upload is kept — core/ingest/uploads.ts — extracted to a temporary
 * directory for the job and removed after it), never applied, stored as
 * the job's result. Registered `restartable: false`, `maxAttempts: 1`: an
 * interrupted fix job ends `abandoned` and never runs again (JOB-4).
 *
 * It refuses a context without the runner's recheck before reading any store. Files are
 * chosen from `files`, or from the repository memory the problem recalls
 * (code-graph names carry the file path), read only from inside the snapshot
 * (realpath), bounded in count and size; then the LLM registry proposes the
 * patch (local strategy, or the configured model). Before the job succeeds
 * the patch is checked with `git apply --check` against the snapshot
 * (./patch-check.ts): one that does not apply fails the job with
 * `patch_does_not_apply`, so a succeeded fix job's patch always applies to
 * the snapshot it was made for.
 */
import { mkdtemp, readFile, realpath, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Config } from "../../core/config";
import { AppError } from "../../core/errors";
import { looksLikeUnifiedDiff } from "../../core/fix/diff";
import { extractArchive } from "../../core/ingest/archive";
import { isInside, resolveLocalSource } from "../../core/ingest/source";
import { findIngestedUpload } from "../../core/ingest/uploads";
import { FIX_JOB, type FixParams } from "../../core/jobs/fix";
import { INGEST_KIND } from "../../core/jobs/ingest";
import { AI_MAX_CONTEXT_FACTS, FIX_MAX_FILES, FIX_MAX_PATCH_BYTES, INGEST_MAX_FILE_BYTES, INGEST_UPLOAD_TTL_MS } from "../../core/limits";
import type { LlmRegistry } from "../../core/llm/registry";
import type { MemoryServices } from "../../core/memory/services";
import type { UploadStore } from "../../core/ingest/upload-store";
import type { Db } from "../../db/schema";
import { lastSucceededParams } from "../../queues/sql/lastSucceededParams";
import { defineRepoHandler, type JobHandler } from "../handler";
import { checkPatchApplies } from "./patch-check";
import { retrieveContext } from "./retrieve";

/** The source of the repository's latest successful ingest (its parameters), if any. */
async function lastIngest(db: Db, repoId: string): Promise<{ path?: unknown; upload_id?: unknown; git_url?: unknown } | null> {
  return ((await lastSucceededParams(db, repoId, INGEST_KIND)) as { path?: unknown; upload_id?: unknown; git_url?: unknown } | undefined) ?? null;
}

const KEPT_HOURS = Math.round(INGEST_UPLOAD_TTL_MS / 3_600_000);

interface Snapshot {
  root: string;
  dispose(): Promise<void>;
}

/** The directory to work in: `path`, or the repository's last ingested snapshot (see the file comment). */
async function openSnapshot(
  deps: { config: Pick<Config, "INGEST_ALLOWED_ROOTS">; uploads: UploadStore },
  params: FixParams,
  ctx: { db: Db; repoId: string; now: Date; signal: AbortSignal },
): Promise<Snapshot> {
  const local = async (p: string) => ({ root: await resolveLocalSource(p, deps.config.INGEST_ALLOWED_ROOTS), dispose: async () => undefined });
  if (params.path !== undefined) return local(params.path);
  const last = await lastIngest(ctx.db, ctx.repoId);
  if (!last) {
    throw new AppError("validation_failed", { message: "No snapshot path was given and the repository has not been ingested yet: ingest it first, or give `path`.", details: { field: "path" } });
  }
  if (typeof last.path === "string") return local(last.path);
  if (typeof last.upload_id === "string") {
    const upload = await findIngestedUpload(deps.uploads, ctx.repoId, last.upload_id, ctx.now);
    if (!upload) {
      throw new AppError("validation_failed", {
        message:
          `The repository was last ingested from an upload that is no longer kept (an ingested upload is kept ${KEPT_HOURS} hours, ` +
          "until its session ends or until a newer one is ingested): upload and ingest the snapshot again, or give `path`.",
        details: { field: "path" },
      });
    }
    const base = await mkdtemp(path.join(tmpdir(), "codesynapse-fix-"));
    const dispose = () => rm(base, { recursive: true, force: true });
    try {
      await extractArchive(upload.content, upload.format, base, ctx.signal);
      return { root: await realpath(base), dispose };
    } catch (err) {
      await dispose();
      throw err;
    }
  }
  throw new AppError("validation_failed", {
    message: "The repository was last ingested from a git URL, which a fix job does not clone: give `path`, or ingest an uploaded snapshot.",
    details: { field: "path" },
  });
}

async function readInside(root: string, rel: string): Promise<string | null> {
  const real = await realpath(path.join(root, rel)).catch(() => null);
  if (!real || !isInside(root, real)) return null;
  const st = await stat(real).catch(() => null);
  if (!st?.isFile() || st.size > INGEST_MAX_FILE_BYTES) return null;
  const text = await readFile(real, "utf8");
  return text.includes("\0") ? null : text;
}

/** An LLM may wrap the diff in a fence; the diff itself is what is kept. */
function unfence(text: string): string {
  const m = /```(?:diff|patch)?\n([\s\S]*?)```/.exec(text);
  return (m ? m[1]! : text).trim() + "\n";
}

export function fixHandler(deps: { config: Pick<Config, "INGEST_ALLOWED_ROOTS">; memory: MemoryServices; uploads: UploadStore; llm: LlmRegistry }): JobHandler<FixParams> {
  return defineRepoHandler({
    ...FIX_JOB,
    async run({ params, auth, db, signal, clock }) {
      const { identity, repo } = auth;
      const snapshot = await openSnapshot(deps, params, { db, repoId: repo.repoId, now: clock.now(), signal });
      try {
        return await proposeIn(snapshot.root);
      } finally {
        await snapshot.dispose();
      }

      async function proposeIn(root: string) {
        const facts = await retrieveContext(deps.memory, auth, params.problem, AI_MAX_CONTEXT_FACTS);
        const candidates = params.files ?? [
          ...new Set(
            facts
              .filter((f) => f.scope === "repository")
              .flatMap((f) => [f.subject, f.object])
              .filter((n) => /\.[A-Za-z0-9]+(#|$)/.test(n))
              .map((n) => n.split("#")[0]!),
          ),
        ];
        const files: Array<{ path: string; text: string }> = [];
        for (const rel of candidates.slice(0, FIX_MAX_FILES)) {
          const text = await readInside(root, rel);
          if (text !== null) files.push({ path: rel, text });
        }
        const answer = await deps.llm.complete({ task: "fix", prompt: params.problem, facts, files });
        const patch = answer.text.trim() === "" ? null : unfence(answer.text);
        if (patch !== null && (!looksLikeUnifiedDiff(patch) || Buffer.byteLength(patch) > FIX_MAX_PATCH_BYTES)) {
          throw new AppError("unavailable", { message: "The provider did not return a usable unified diff." });
        }
        if (patch !== null) await checkPatchApplies(root, patch, identity, signal);
        return {
          result: {
            patch,
            files: files.map((f) => f.path),
            // The facts the answer was built from, as for an AI task (what a forget's erasure looks for).
            sources: facts.map((f) => ({ scope: f.scope, fact_id: f.fact_id })),
            provider: answer.provider,
            model: answer.model,
            ...(patch === null ? { reason: "The provider found no concrete edit for this problem." } : {}),
          },
        };
      }
    },
  });
}
