/**
 * A newcomer's path on the embedded default: `npm start` serves /healthz, the
 * admin CLI bootstraps accounts (one JSON object per command), everything
 * survives a restart, the pools it runs ingest an uploaded snapshot and answer
 * a question about it, and a bad configuration stops start-up naming the variable.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
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
      // Offline, the CLI refuses to open the data directory a running server holds.
      const busy = await runCli(["admin", "create-org", "--name", "busy", "--offline", "--json"], env);
      expect(busy.code).not.toBe(0);
      expect(JSON.parse(busy.stdout).error.code).toBe("data_dir_in_use");
      expect(JSON.parse(busy.stdout).error.message).toContain("Stop it first");

      // Otherwise the admin commands go through the running server: the README's first steps in one command.
      const boot = await admin("bootstrap", "--org", "Early", "--email", "ops@early.test", "--repo", "tools");
      expect(boot).toMatchObject({ repo_name: "tools", email: "ops@early.test", api_key: expect.stringMatching(/^csk_/), password: expect.any(String) });
      const me = await call(first.url, "GET", "/api/v1/me", { headers: { authorization: `Bearer ${boot.api_key}` } });
      expect(me.body).toMatchObject({ organization: { id: boot.org_id, name: "Early" }, user: { email: "ops@early.test" }, role: "owner" });
      const signIn = await call(first.url, "POST", "/api/v1/auth/login", { body: { email: "ops@early.test", password: boot.password } });
      expect(signIn.status).toBe(200);
      // All of it or nothing: a second bootstrap with the same email writes no organisation.
      const again = await runCli(["admin", "bootstrap", "--org", "Twice", "--email", "ops@early.test", "--repo", "tools", "--json"], env);
      expect([again.code, JSON.parse(again.stdout).error.code]).toEqual([1, "conflict"]);
      // A remote server by URL: a platform admin's key (the bootstrap made one), never anyone else's.
      const viaUrl = await runCli(["admin", "create-org", "--name", "ByUrl", "--json"], { ...cleanEnv({}), CODESYNAPSE_URL: first.url, CODESYNAPSE_API_KEY: boot.api_key });
      expect(viaUrl.code, viaUrl.stderr).toBe(0);
      expect(JSON.parse(viaUrl.stdout).org_id).toMatch(/^org_/);
      const member = JSON.parse((await runCli(["admin", "create-user", "--email", "m@early.test", "--json"], env)).stdout);
      await admin("add-member", "--org", boot.org_id, "--user", member.user_id, "--role", "member");
      const memberKey = (await admin("create-api-key", "--org", boot.org_id, "--user", member.user_id)).api_key;
      const refused = await runCli(["admin", "create-org", "--name", "Nope", "--json"], { ...cleanEnv({}), CODESYNAPSE_URL: first.url, CODESYNAPSE_API_KEY: memberKey });
      expect([refused.code, JSON.parse(refused.stdout).error.code]).toEqual([1, "platform_admin_required"]);
      const noKey = await runCli(["admin", "create-org", "--name", "Nope", "--json"], { ...cleanEnv({}), CODESYNAPSE_URL: first.url });
      expect(JSON.parse(noKey.stdout).error.message).toContain("CODESYNAPSE_API_KEY");
      expect(existsSync(path.join(dataDir, "server.json"))).toBe(true);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    // A stopped server takes its announcement with it: the CLI opens the database itself again.
    expect(existsSync(path.join(dataDir, "server.json"))).toBe(false);

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
  }, 400_000); // seventeen sequential process start-ups on a 2-core machine

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
