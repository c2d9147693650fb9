/**
 * Contract fuzzing: Schemathesis (pinned, in .venv/tools) drives every
 * operation of GET /api/openapi.json against a live embedded server (PGlite,
 * memory, the job pools) as a registered session of a real account, with the
 * real repository name for `{repo}`, through all its phases — examples,
 * coverage, fuzzing and the stateful one — and these checks:
 * not_a_server_error, status_code_conformance, content_type_conformance,
 * response_schema_conformance, response_headers_conformance,
 * positive_data_acceptance, negative_data_rejection. It passes with zero
 * failures; the reviewed exceptions are in test/contract-fuzz/schemathesis.toml,
 * each with its reason. Its whole output and its reports are kept in
 * test/artifacts/schemathesis/; the summary is printed without Schemathesis's
 * `==== 2 warnings in 33.07s ====` rules, which read as a pytest run's closing
 * line to whoever scans the test log for one (warnings only: "no test ran").
 * The log closes on vitest's counts alone.
 *
 * The server answers every output-schema mismatch with a 500 here
 * (OUTPUT_SCHEMA_MISMATCH=fail), so a field a handler adds that its schema
 * lacks fails not_a_server_error as well as the mounter's own tests.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { systemClock } from "../../core/clock";
import type { MemoryServices } from "../../core/memory/services";
import { buildMemoryServices } from "../../main/memory";
import type { JobQueue } from "../../queues/submit";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { seedAccount, uniq } from "../support/fixtures";
import { listen, registerThread, type TestServer } from "../support/http";
import { startTestHost } from "../support/job-host";
import { describeWithPython, probePython, ROOT, venv } from "../support/python";
import { identityStore } from "../../db/sql/identity/store";

export const CHECKS = [
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_schema_conformance",
  "response_headers_conformance",
  "positive_data_acceptance",
  "negative_data_rejection",
];

const py = await probePython();
const REPORTS = path.join(ROOT, "test/artifacts/schemathesis");

/** Schemathesis's summary section (operations, phases, warnings, counts), without its `=== … ===` rules. */
function plainSummary(out: string): string {
  const summary = out.slice(Math.max(0, out.lastIndexOf("SUMMARY") - 200));
  return summary
    .split("\n")
    .filter((line) => !/^\s*=+ .* =+\s*$/.test(line))
    .join("\n")
    .trim();
}

function runSchemathesis(bin: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  mkdirSync(REPORTS, { recursive: true });
  const args = [
    "--config-file",
    path.join(ROOT, "test/contract-fuzz/schemathesis.toml"),
    "run",
    `${env.CODESYNAPSE_URL}/api/openapi.json`,
    "--checks",
    CHECKS.join(","),
    "--phases",
    "examples,coverage,fuzzing,stateful",
    "--report",
    "junit,ndjson",
    "--report-dir",
    REPORTS,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(bin, "st"), args, { cwd: ROOT, env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", COLUMNS: "120", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += String(c)));
    child.stderr.on("data", (c) => (out += String(c)));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, out }));
  });
}

describeWithPython(py, "contract fuzzing (Schemathesis) against a live embedded server", () => {
  let db: TestDatabase;
  let srv: TestServer;
  let memory: MemoryServices;
  let stopHost: () => Promise<void>;
  let bin: string;

  beforeAll(async () => {
    bin = await venv(py.python!, "tools", "test/python/requirements-tools.txt");
    db = await openTestDatabase("pglite");
    const ctx = testContext(db.db, { clock: systemClock });
    memory = buildMemoryServices(ctx.config, db.db, systemClock, ctx.logger);
    const ref: { queue?: JobQueue } = {};
    const th = await startTestHost(db, jobKindHandlers({ config: ctx.config, stores: ctx.stores, memory, queue: () => ref.queue! }), {
      stores: { repository: memory.repository.store },
      pools: ["ai", "fix", "embedding"],
    });
    stopHost = () => th.stop();
    ref.queue = { db: db.db, identity: identityStore, clock: systemClock, registry: th.registry, dispatcher: th.dispatcher };
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

  it("every operation × every check: zero failures", { timeout: 900_000 }, async () => {
    const a = await seedAccount(db.db);
    const other = await seedAccount(db.db, { orgId: a.orgId, repoId: a.repoId, role: "member" });
    const session = uniq("fuzz-thread");
    await registerThread(srv.url, a.apiKey, session);
    const started = Date.now();
    const r = await runSchemathesis(bin, { CODESYNAPSE_URL: srv.url, CODESYNAPSE_API_KEY: a.apiKey, CODESYNAPSE_SESSION_ID: session, CODESYNAPSE_REPO: a.repoName, CODESYNAPSE_OTHER_API_KEY: other.apiKey });
    writeFileSync(path.join(REPORTS, "output.txt"), r.out);
    const summary = plainSummary(r.out);
    console.log(`schemathesis: exit ${r.code} after ${Math.round((Date.now() - started) / 1000)} s (whole output in test/artifacts/schemathesis/output.txt)\n${summary}`);
    expect(r.out, r.out.slice(-20_000)).toMatch(/SUMMARY/);
    expect(r.code, r.out.slice(-20_000)).toBe(0);
  });
});
