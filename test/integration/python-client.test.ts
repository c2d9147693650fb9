/**
 * The Python client (clients/python) against the real app and real worker
 * pools: installed into a venv (.venv/client, from its pinned requirements),
 * test/python/client_flow.py registers a session, upserts and recalls session
 * memory, submits an AI task and waits for it, is refused with the platform's
 * code, revokes, and is refused after. And the committed generated package is
 * what the catalog generates now (openapi-python-client, pinned, from
 * .venv/tools). Skipped with a reason without Python 3.10+; REQUIRE_SERVICES=1
 * (CI) makes that a failure.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { GENERATED_PACKAGE, generatePythonClient } from "../../clients/python/scripts/generate";
import { systemClock } from "../../core/clock";
import type { MemoryServices } from "../../core/memory/services";
import { buildMemoryServices } from "../../main/memory";
import type { JobQueue } from "../../queues/submit";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { seedAccount, uniq } from "../support/fixtures";
import { listen, type TestServer } from "../support/http";
import { startTestHost } from "../support/job-host";
import { describeWithPython, probePython, ROOT, venv } from "../support/python";
import { identityStore } from "../../db/sql/identity/store";

const run = promisify(execFile);
const py = await probePython();

/** Every file under `dir` (relative path → text), skipping caches. */
function tree(dir: string, at = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(path.join(dir, at)).sort()) {
    if (name === "__pycache__" || name === ".ruff_cache") continue;
    const rel = path.join(at, name);
    if (statSync(path.join(dir, rel)).isDirectory()) for (const [k, v] of tree(dir, rel)) out.set(k, v);
    else out.set(rel, readFileSync(path.join(dir, rel), "utf8"));
  }
  return out;
}

describeWithPython(py, "Python client (clients/python)", () => {
  it("the committed codesynapse_api is what the catalog generates (run `npm run client:generate:python` when this fails)", { timeout: 900_000 }, async () => {
    // Beside the real package: ruff formats for the Python version clients/python/pyproject.toml names.
    const out = path.join(ROOT, "clients/python", `.stale-check-${process.pid}`);
    try {
      await generatePythonClient(out);
      const want = tree(out);
      const have = tree(GENERATED_PACKAGE);
      expect([...have.keys()]).toEqual([...want.keys()]);
      for (const [file, text] of want) expect(have.get(file), file).toBe(text);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  // One database is enough here: what is under test is the client, and the API is the same on both.
  describe("a runtime's life through it [pglite]", () => {
    let db: TestDatabase;
    const t = () => db;
    let srv: TestServer;
    let memory: MemoryServices;
    let stopHost: () => Promise<void>;
    let bin: string;

    beforeAll(async () => {
      bin = await venv(py.python!, "client", "clients/python/requirements.txt", ["--no-build-isolation", "--no-deps", "-e", path.join(ROOT, "clients/python")]);
      db = await openTestDatabase("pglite");
      const ctx = testContext(t().db, { clock: systemClock });
      memory = buildMemoryServices(ctx.config, t().db, systemClock, ctx.logger);
      const ref: { queue?: JobQueue } = {};
      const th = await startTestHost(t(), jobKindHandlers({ config: ctx.config, stores: ctx.stores, memory, queue: () => ref.queue! }), {
        stores: { repository: memory.repository.store },
        pools: ["ai"],
      });
      stopHost = () => th.stop();
      ref.queue = { db: t().db, identity: identityStore, clock: systemClock, registry: th.registry, dispatcher: th.dispatcher };
      ctx.memory = memory;
      ctx.jobs = ref.queue;
      srv = await listen(createApp(ctx));
    }, 900_000);
    afterAll(async () => {
      await srv?.close();
      await stopHost?.();
      memory?.close();
      await db?.close();
    });

    it("registers, remembers and recalls, runs an AI task to its end, is refused with stable codes, revokes", { timeout: 300_000 }, async () => {
      const a = await seedAccount(t().db);
      const session = uniq("py-thread");
      const env = { PATH: process.env.PATH ?? "", CODESYNAPSE_URL: srv.url, CODESYNAPSE_API_KEY: a.apiKey, CODESYNAPSE_SESSION_ID: session, REPO: a.repoName };
      const r = await run(path.join(bin, "python"), [path.join(ROOT, "test/python/client_flow.py")], { env, cwd: ROOT, timeout: 240_000 });
      expect(r.stderr).toBe("");
      const steps = Object.fromEntries(
        r.stdout
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as { step: string } & Record<string, unknown>)
          .map((s) => [s.step, s]),
      );
      console.log(r.stdout.trim());
      expect(steps.register).toMatchObject({ session_id: session, tenant_id: a.orgId });
      expect(steps.register_again!.expires_at).toBe(steps.register!.expires_at);
      expect(steps.identity).toMatchObject({ session_id: session, parent_session_id: session });
      expect(steps.upsert).toMatchObject({ facts: 1, revision: 1 });
      expect(steps.recall).toMatchObject({ subject: "AuthService", predicate: "depends_on", object: "TokenStore", source: "python client test" });
      expect(steps.ai_task).toMatchObject({ status: "succeeded", has_answer: true });
      expect(steps.refused).toMatchObject({ code: "repo_not_found", status: 404 });
      // Neither the key nor the session ID shows in an error or the client's repr.
      expect(String(steps.refused!.shown)).not.toContain(a.apiKey);
      expect(String(steps.refused!.shown)).not.toContain(session);
      expect(steps.after_revoke).toMatchObject({ code: "session_revoked", status: 410 });
    });
  });
});
