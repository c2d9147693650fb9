/**
 * A newcomer's path on the embedded default: `npm start` serves /healthz, the
 * admin CLI bootstraps accounts (one JSON object per command), everything
 * survives a restart, the pools it runs ingest an uploaded snapshot and answer
 * a question about it, and a bad configuration stops start-up naming the variable.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanEnv, runCli, startServer } from "../support/process";
import { fixtureTar } from "../support/archives";
import { FIXTURE_FILES } from "../support/fixture-repo";
import { call, ingestArchive, registerThread } from "../support/http";

const dataDir = mkdtempSync(path.join(tmpdir(), "codesynapse-e2e-"));
const env = cleanEnv({ CODESYNAPSE_DATA_DIR: dataDir });

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function admin(...args: string[]): Promise<any> {
  const r = await runCli(["admin", ...args, "--json"], env);
  expect(r.code, r.stderr).toBe(0);
  const lines = r.stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

describe("npm start and the admin CLI on the embedded default", () => {
  it("serves, bootstraps accounts, keeps them across a restart", async () => {
    const first = await startServer(["start"], env);
    try {
      expect((await call(first.url, "GET", "/healthz")).status).toBe(200);
      expect((await call(first.url, "GET", "/readyz")).status).toBe(200);
      // The CLI refuses to open the data directory a running server holds.
      const busy = await runCli(["admin", "create-org", "--name", "busy", "--json"], env);
      expect(busy.code).not.toBe(0);
      expect(JSON.parse(busy.stdout).error.code).toBe("data_dir_in_use");
    } finally {
      expect(await first.stop()).toBe(0);
    }

    const { org_id } = await admin("create-org", "--name", "Acme");
    const { user_id } = await admin("create-user", "--email", "dev@acme.test", "--password", "s3cret-passw0rd");
    expect(await admin("add-member", "--org", org_id, "--user", user_id, "--role", "owner")).toMatchObject({ role: "owner" });
    const { api_key } = await admin("create-api-key", "--org", org_id, "--user", user_id);
    const { repo_id } = await admin("create-repo", "--org", org_id, "--name", "webapp");
    expect(await admin("grant", "--repo", repo_id, "--user", user_id, "--level", "write")).toMatchObject({ level: "write" });
    expect(api_key).toMatch(/^csk_/);

    const bad = await runCli(["admin", "grant", "--repo", repo_id, "--user", user_id, "--level", "root", "--json"], env);
    expect(bad.code).not.toBe(0);
    expect(JSON.parse(bad.stdout).error.code).toBe("validation_failed");

    const second = await startServer(["start"], env);
    try {
      const me = await call(second.url, "GET", "/api/v1/me", { headers: { authorization: `Bearer ${api_key}` } });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ organization: { id: org_id, name: "Acme" }, user: { id: user_id, email: "dev@acme.test" }, role: "owner" });
      const login = await call(second.url, "POST", "/api/v1/auth/login", { body: { email: "dev@acme.test", password: "s3cret-passw0rd" } });
      expect(login.status).toBe(200);

      // The pools `npm start` runs: a chat thread registers, uploads a snapshot, ingests it and asks about it.
      const { client: thread } = await registerThread(second.url, api_key, "e2e-thread-1");
      expect(await ingestArchive(thread, "webapp", await fixtureTar(FIXTURE_FILES), 60_000)).toMatchObject({
        status: "succeeded",
        result: { source: "upload", files: Object.keys(FIXTURE_FILES).length },
      });
      const ask = await thread.submit("ai-tasks", "webapp", { task: "question", question: "Where is verifyToken defined?" });
      const answer = await thread.waitForJob(ask.job_id, { timeoutMs: 60_000 });
      expect(answer.status).toBe("succeeded");
      expect(JSON.stringify(answer.result)).toContain("verifyToken");
    } finally {
      expect(await second.stop()).toBe(0);
    }
    expect((await admin("revoke-api-key", "--key-prefix", api_key.slice(0, 12))).revoked).toBe(true);
  }, 300_000); // ten sequential process start-ups on a 2-core machine

  it("a bad configuration stops start-up with a message naming the variable", async () => {
    const r = await runCli(["start"], { ...env, DATABASE_URL: "nonsense" });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("DATABASE_URL");
    const p = await runCli(["start"], { ...env, PORT: "seventy" });
    expect(p.code).not.toBe(0);
    expect(p.stderr).toContain("PORT");
  });

  it("an unknown command under --json prints one JSON error object on stdout, the usage on stderr, and exits 2", async () => {
    for (const args of [["admin", "frobnicate-xyz", "--json"], ["admin", "--json"], ["frobnicate-xyz", "--json"]]) {
      const r = await runCli(args, env);
      expect(r.code, args.join(" ")).toBe(2);
      const lines = r.stdout.trim().split("\n");
      expect(lines, args.join(" ")).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toEqual({ error: { code: "unknown_command", message: expect.any(String) } });
      expect(r.stdout).not.toContain("frobnicate");
      expect(r.stderr).toContain("usage: codesynapse");
    }
    // Without --json: the usage alone, on stderr.
    const plain = await runCli(["admin", "frobnicate-xyz"], env);
    expect([plain.code, plain.stdout]).toEqual([2, ""]);
    expect(plain.stderr).toContain("admin create-org");
  }, 120_000); // four process start-ups
});
