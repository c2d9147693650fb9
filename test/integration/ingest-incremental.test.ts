/**
 * Incremental re-ingest by content hash, .gitignore, and progress on the job
 * row (WRK-2), over the real runner and stores on PGlite and
 * PostgreSQL: an unchanged file is not parsed again (the job's result says
 * how many were: files_parsed / files_unchanged / files_deleted), a deleted
 * file is pruned from the graph and the cache, and the graph stays whole.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildMemoryServices } from "../../main/memory";
import { jobView } from "../../ops/job-view";
import { systemClock } from "../../core/clock";
import type { Config } from "../../core/config";
import { silentLogger } from "../../core/log";
import { repoNodeId } from "../../core/memory/ids";
import type { MemoryServices } from "../../core/memory/services";
import type { JobRow } from "../../queues/jobs";
import { submitJob, type JobQueue } from "../../queues/submit";
import { INGEST_KIND } from "../../core/jobs/ingest";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { FIXTURE_FILES, writeFixtureRepo } from "../support/fixture-repo";
import { startTestHost, type TestHost } from "../support/job-host";
import { jobRow, seedExecution, waitFor, type Execution } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";
import { relationalStores } from "../../db/stores";

const TERMINAL = new Set(["succeeded", "failed", "canceled", "abandoned", "refused"]);
const PARSABLE = Object.keys(FIXTURE_FILES).filter((f) => /\.(ts|py|go|java)$/.test(f)).length;

interface IngestResult {
  files: number;
  files_parsed: number;
  files_unchanged: number;
  files_deleted: number;
  files_ignored: number;
  calls: number;
  pruned: { edges: number; nodes: number };
}

await describeEachDatabase("incremental ingest", (t) => {
  let th: TestHost;
  let memory: MemoryServices;
  let config: Config;
  let queue: JobQueue;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "cs-incr-"));
    config = testContext(t().db, { env: { INGEST_ALLOWED_ROOTS: root } }).config;
    memory = buildMemoryServices(config, t().db, systemClock, silentLogger());
    th = await startTestHost(t(), jobKindHandlers({ config, stores: relationalStores(t().db), memory, queue: () => queue }), { stores: { repository: memory.repository.store }, pools: ["ingest"], leaseMs: 10_000 });
    queue = { db: t().db, identity: identityStore, clock: systemClock, registry: th.registry, dispatcher: th.dispatcher };
  });
  afterAll(async () => {
    await th?.stop();
    memory?.close();
    await rm(root, { recursive: true, force: true });
  });

  async function ingest(e: Execution, dir: string): Promise<JobRow> {
    const job = await submitJob(queue, e.identity, e.principal, { kind: INGEST_KIND, params: { path: dir }, repo: e.account.repoId });
    const done = await waitFor(async () => {
      const r = await jobRow(t().db, job.id);
      return TERMINAL.has(r.status) ? r : undefined;
    }, 30_000);
    expect(done.status, JSON.stringify(done)).toBe("succeeded");
    return done;
  }
  const names = async (e: Execution, token: string) => (await memory.repository.store.searchNodes(e.account.repoId, [token], 50)).map((n) => n.name).sort();

  it("one file changed → exactly one file parsed; unchanged files reuse their parse; a deleted file is pruned; progress is files done of total", async () => {
    const e = await seedExecution(t().db, systemClock);
    const dir = path.join(root, "repo");
    await writeFixtureRepo(dir);

    const first = await ingest(e, dir);
    const r1 = first.result as IngestResult;
    expect([r1.files_parsed, r1.files_unchanged, r1.files_deleted]).toEqual([PARSABLE, 0, 0]);
    expect(r1.calls).toBeGreaterThan(0);
    // The job row's progress, as get_job and GET /api/v1/jobs/{id} show it.
    expect(jobView(first).progress).toEqual({ done: r1.files, total: r1.files });

    const second = (await ingest(e, dir)).result as IngestResult;
    expect([second.files_parsed, second.files_unchanged, second.files_deleted]).toEqual([0, PARSABLE, 0]);

    await writeFile(path.join(dir, "src/store.ts"), `${FIXTURE_FILES["src/store.ts"]}export function purgeExpired(): number {\n  return makeStore() ? 0 : 1;\n}\n`);
    await rm(path.join(dir, "lib.py"));
    const third = (await ingest(e, dir)).result as IngestResult;
    expect([third.files_parsed, third.files_unchanged, third.files_deleted]).toEqual([1, PARSABLE - 2, 1]);
    expect(third.pruned.nodes).toBeGreaterThanOrEqual(2);

    // The graph is whole: the changed file's new symbol and call, the unchanged files' symbols
    // (from the cache) and their calls, and nothing of the deleted file.
    expect(await names(e, "purgeexpired")).toEqual(["src/store.ts#purgeExpired"]);
    expect(await names(e, "verifytoken")).toEqual(["src/auth.ts#AuthService.verifyToken"]);
    expect(await names(e, "lib.py")).toEqual([]);
    const repoId = e.account.repoId;
    const fn = await memory.repository.store.querySubgraph(repoId, repoNodeId(repoId, "code.function", "src/store.ts#purgeExpired"), 1, 50);
    expect(fn.edges.some((x) => x.predicate === "calls" && x.dst === repoNodeId(repoId, "code.function", "src/store.ts#makeStore"))).toBe(true);
    const verify = await memory.repository.store.querySubgraph(repoId, repoNodeId(repoId, "code.method", "src/auth.ts#AuthService.verifyToken"), 1, 50);
    expect(verify.edges.some((x) => x.predicate === "calls" && x.dst === repoNodeId(repoId, "code.method", "src/store.ts#TokenStore.get"))).toBe(true);

    // The cache holds exactly the snapshot's parsable files.
    const cached = await t().db.selectFrom("repo_ingest_files").select("path").where("repo_id", "=", repoId).execute();
    expect(cached.length).toBe(PARSABLE - 1);
    expect(cached.map((c) => c.path)).not.toContain("lib.py");
  });

  it("files .gitignore ignores are neither parsed nor in the graph", async () => {
    const e = await seedExecution(t().db, systemClock);
    const dir = path.join(root, "ignored");
    await writeFixtureRepo(dir, { ...FIXTURE_FILES, ".gitignore": "generated/\n*.gen.ts\n", "generated/client.ts": "export function generatedClient() {}\n", "src/api.gen.ts": "export function genApi() {}\n" });
    const r = (await ingest(e, dir)).result as IngestResult;
    expect(r.files_ignored).toBe(2);
    expect(r.files_parsed).toBe(PARSABLE);
    expect(await names(e, "generatedclient")).toEqual([]);
    expect(await names(e, "genapi")).toEqual([]);
  });
});
