/**
 * Fix proposals are checked with `git apply --check` against the snapshot
 * before the job succeeds (WRK-5), on PGlite and PostgreSQL, with a
 * model behind an OpenAI-compatible endpoint (a local HTTP server here) that
 * returns the patch the test chooses: one that applies succeeds, a stale one
 * (its context no longer matches) and one that leaves the snapshot fail with
 * `patch_does_not_apply` and no patch in the result.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildMemoryServices } from "../../main/memory";
import { systemClock } from "../../core/clock";
import type { Config } from "../../core/config";
import { filePatch } from "../../core/fix/diff";
import { buildLlmRegistry } from "../../core/llm/registry";
import { silentLogger } from "../../core/log";
import type { MemoryServices } from "../../core/memory/services";
import type { JobRow } from "../../queues/jobs";
import { submitJob, type JobQueue } from "../../queues/submit";
import { FIX_KIND } from "../../core/jobs/fix";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { writeFixtureRepo } from "../support/fixture-repo";
import { startTestHost, type TestHost } from "../support/job-host";
import { jobRow, seedExecution, waitFor } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";
import { relationalStores } from "../../db/stores";

const TERMINAL = new Set(["succeeded", "failed", "canceled", "abandoned", "refused"]);
const SOURCE = "export function total(xs: number[]): number {\n  let t = 0;\n  for (const x of xs) t += x;\n  return t;\n}\n";

await describeEachDatabase("fix proposals apply or fail", (t) => {
  let th: TestHost;
  let memory: MemoryServices;
  let config: Config;
  let queue: JobQueue;
  let root: string;
  let server: Server;
  /** What the fake model answers next. */
  let reply = "";

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "cs-fixapply-"));
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: reply } }] }));
      });
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const port = (server.address() as { port: number }).port;
    config = testContext(t().db, { env: { INGEST_ALLOWED_ROOTS: root } }).config;
    memory = buildMemoryServices(config, t().db, systemClock, silentLogger());
    const llm = buildLlmRegistry({ LLM_PROVIDER: "openai", LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, LLM_MODEL: "fake", LLM_API_KEY: undefined });
    th = await startTestHost(t(), jobKindHandlers({ config, stores: relationalStores(t().db), memory, queue: () => queue, llm }), { stores: { repository: memory.repository.store }, pools: ["fix"], leaseMs: 10_000 });
    queue = { db: t().db, identity: identityStore, clock: systemClock, registry: th.registry, dispatcher: th.dispatcher };
  });
  afterAll(async () => {
    await th?.stop();
    memory?.close();
    server?.close();
    await rm(root, { recursive: true, force: true });
  });

  async function propose(dir: string): Promise<JobRow> {
    const e = await seedExecution(t().db, systemClock);
    const job = await submitJob(queue, e.identity, e.principal, { kind: FIX_KIND, params: { problem: "total should skip NaN", path: dir, files: ["src/sum.ts"] }, repo: e.account.repoId });
    return waitFor(async () => {
      const r = await jobRow(t().db, job.id);
      return TERMINAL.has(r.status) ? r : undefined;
    }, 30_000);
  }

  it("a patch that applies (lines added and changed, made by jsdiff) succeeds, and git apply really applies it", async () => {
    const dir = path.join(root, "ok");
    await writeFixtureRepo(dir, { "src/sum.ts": SOURCE });
    const after = SOURCE.replace("  for (const x of xs) t += x;\n", "  for (const x of xs) {\n    if (Number.isNaN(x)) continue;\n    t += x;\n  }\n");
    reply = "```diff\n" + filePatch("src/sum.ts", SOURCE, after) + "```\n";
    const done = await propose(dir);
    expect(done.status, JSON.stringify(done)).toBe("succeeded");
    const patch = (done.result as { patch: string }).patch;
    await writeFile(path.join(root, "ok.diff"), patch);
    await promisify(execFile)("git", ["apply", path.join(root, "ok.diff")], { cwd: dir });
    expect(await readFile(path.join(dir, "src/sum.ts"), "utf8")).toBe(after);
  });

  it("a stale patch (context that is not in the snapshot) fails the job with patch_does_not_apply and no patch", async () => {
    const dir = path.join(root, "stale");
    await writeFixtureRepo(dir, { "src/sum.ts": SOURCE });
    const older = SOURCE.replace("let t = 0;", "let t = 0; // running total");
    reply = filePatch("src/sum.ts", older, older.replace("return t;", "return Number.isFinite(t) ? t : 0;"));
    const done = await propose(dir);
    expect([done.status, done.error_code]).toEqual(["failed", "patch_does_not_apply"]);
    expect(JSON.stringify(done.result ?? null)).not.toContain("Number.isFinite");
    expect(await readFile(path.join(dir, "src/sum.ts"), "utf8")).toBe(SOURCE);
  });

  it("a patch for a file outside the snapshot, or for a missing file, does not apply either", async () => {
    const dir = path.join(root, "escape");
    await writeFixtureRepo(dir, { "src/sum.ts": SOURCE });
    await writeFile(path.join(root, "outside.ts"), SOURCE);
    for (const target of ["../outside.ts", "src/missing.ts"]) {
      reply = filePatch(target, SOURCE, SOURCE.replace("let t = 0;", "let t = 1;"));
      const done = await propose(dir);
      expect([done.status, done.error_code], target).toEqual(["failed", "patch_does_not_apply"]);
    }
    expect(await readFile(path.join(root, "outside.ts"), "utf8")).toBe(SOURCE);
  });
});
