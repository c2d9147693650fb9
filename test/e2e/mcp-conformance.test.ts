/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned as a
 * devDependency; its CLI needs Node >= 22) against the real app on an ephemeral port: every
 * server scenario that applies to what this server offers runs and must pass.
 *
 * Run: the scenarios in APPLICABLE. Skipped, and why (each needs a capability or a fixture tool
 * this server does not have — the suite's scenarios call tools of its reference server by name):
 *   - logging-set-level, tools-call-with-logging: no `logging` capability (deprecated in 2026-07-28);
 *   - completion-complete: no prompts or resource templates to complete;
 *   - tools-call-simple-text, -image, -audio, -embedded-resource, -mixed-content, -error,
 *     -with-progress, -sampling, -elicitation, json-schema-2020-12, elicitation-sep1034-defaults,
 *     elicitation-sep1330-enums: they call the reference server's fixture tools (`test_*`);
 *   - server-sse-polling, server-sse-multiple-streams: they call a fixture tool to hold a stream;
 *   - resources-*, prompts-*: no resources or prompts.
 * Version 0.1.16 has scenarios for the 2025 revisions only; the 2026-07-28 era is covered by the
 * SDK v2 clients (test/e2e/mcp-eras.test.ts, test/e2e/mcp-tasks.test.ts).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { testContextWithMemory } from "../support/app";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { listen, type TestServer } from "../support/http";

const CLI = path.resolve(import.meta.dirname, "../../node_modules/@modelcontextprotocol/conformance/dist/index.js");

export const APPLICABLE = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"] as const;

function conformance(url: string, scenario: string, out: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // process.execPath: the Node running the tests (>= 22, as the suite requires).
    const child = spawn(process.execPath, [CLI, "server", "--url", url, "--scenario", scenario, "-o", out], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("the MCP conformance suite against /mcp", () => {
  let database: TestDatabase;
  let srv: TestServer;
  let out: string;

  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    srv = await listen(createApp(testContextWithMemory(database.db)));
    out = await mkdtemp(path.join(tmpdir(), "cs-conformance-"));
  });
  afterAll(async () => {
    await srv?.close();
    await database?.close();
    if (out) await rm(out, { recursive: true, force: true });
  });

  for (const scenario of APPLICABLE) {
    it(`scenario ${scenario} passes`, async () => {
      const r = await conformance(`${srv.url}/mcp`, scenario, out);
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(r.stdout).not.toMatch(/\bFAIL(ED)?\b/);
    }, 180_000);
  }
});
