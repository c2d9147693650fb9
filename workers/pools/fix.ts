/**
 * The fix pool's kind (WRK-5): a patch proposal — a unified diff — for a
 * described problem in an ingested snapshot directory (`path`, or the path of
 * the repository's latest successful local ingest), never applied, stored as
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
import { readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../../core/config";
import { AppError } from "../../core/errors";
import { looksLikeUnifiedDiff } from "../../core/fix/diff";
import { isInside, resolveLocalSource } from "../../core/ingest/source";
import { FIX_JOB, type FixParams } from "../../core/jobs/fix";
import { INGEST_KIND } from "../../core/jobs/ingest";
import { AI_MAX_CONTEXT_FACTS, FIX_MAX_FILES, FIX_MAX_PATCH_BYTES, INGEST_MAX_FILE_BYTES } from "../../core/limits";
import type { LlmRegistry } from "../../core/llm/registry";
import type { MemoryServices } from "../../core/memory/services";
import type { Db } from "../../db/schema";
import { defineRepoHandler, type JobHandler } from "../handler";
import { checkPatchApplies } from "./patch-check";
import { retrieveContext } from "./retrieve";

/** The path of the repository's latest successful local-path ingest, if any. */
async function lastIngestedPath(db: Db, repoId: string): Promise<string | null> {
  const rows = await db
    .selectFrom("jobs")
    .select("params")
    .where("repo_id", "=", repoId)
    .where("kind", "=", INGEST_KIND)
    .where("status", "=", "succeeded")
    .orderBy("finished_at", "desc")
    .limit(10)
    .execute();
  for (const r of rows) {
    const p = (r.params as { path?: unknown } | null)?.path;
    if (typeof p === "string") return p;
  }
  return null;
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

export function fixHandler(deps: { config: Pick<Config, "INGEST_ALLOWED_ROOTS">; memory: MemoryServices; llm: LlmRegistry }): JobHandler<FixParams> {
  return defineRepoHandler({
    ...FIX_JOB,
    async run({ params, auth, db, signal }) {
      const { identity, repo } = auth;
      const source = params.path ?? (await lastIngestedPath(db, repo.repoId));
      if (!source) throw new AppError("validation_failed", { message: "No snapshot path was given and the repository has no local ingest.", details: { field: "path" } });
      const root = await resolveLocalSource(source, deps.config.INGEST_ALLOWED_ROOTS);
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
          provider: answer.provider,
          model: answer.model,
          ...(patch === null ? { reason: "The provider found no concrete edit for this problem." } : {}),
        },
      };
    },
  });
}
