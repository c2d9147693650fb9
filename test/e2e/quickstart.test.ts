/**
 * examples/quickstart.sh, the README's walkthrough as one script, run as a newcomer would on the
 * embedded default (fresh data directory, free port, no service URLs): it starts, bootstraps
 * through the running server, registers, uploads this repository's committed files, ingests, waits for the ingest's
 * follow-up embedding jobs (recall complete), asks and prints result.answer, which names the code that verifies a key.
 * A step that fails stops it with a non-zero exit naming the step.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cleanEnv } from "../support/process";

const SCRIPT = path.resolve(import.meta.dirname, "../../examples/quickstart.sh");

function quickstart(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [SCRIPT, ...args], { env: cleanEnv(env), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 1_500_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe.concurrent("examples/quickstart.sh", () => {
  it("runs the walkthrough end to end and prints the answer", async () => {
    const r = await quickstart({});
    expect(r.code, r.stderr).toBe(0);
    for (const step of ["bootstrap", "start", "register a chat thread", "upload a snapshot", "ingest", "embeddings", "ask", "result.answer"]) expect(r.stderr).toContain(`== ${step}`);
    // The snapshot is the committed files: this repository's, not node_modules or .git.
    expect(r.stderr).toMatch(/ingested \d+ files/);
    const files = Number(/ingested (\d+) files/.exec(r.stderr)![1]);
    expect(files).toBeGreaterThan(50);
    expect(files).toBeLessThan(2000);
    expect(r.stdout).toContain("From the retrieved facts:");
    expect(r.stdout).toContain("core/accounts/api-keys.ts");
    // Asked once the ingest's follow-ups have embedded every node, the showcase answer names the code that verifies a key.
    expect(r.stderr).toMatch(/recall complete: [1-9]\d* embedding jobs/);
    expect(r.stdout).toMatch(/#(checkCredential|authenticate|authenticateFor)\b/);
    expect(r.stdout).not.toContain("were still being built");
    // The server was running when the admin command bootstrapped the accounts; the data directory
    // the script made is gone with it.
    expect(r.stderr.indexOf("== start")).toBeLessThan(r.stderr.indexOf("== bootstrap"));
    const made = /bootstrap \(data directory ([^)]+)\)/.exec(r.stderr)![1]!;
    expect(existsSync(made)).toBe(false);
  }, 1_600_000);

  it("stops with a non-zero exit at the step that fails, and says why", async () => {
    const r = await quickstart({ INGEST_MAX_UPLOAD_BYTES: "1024" });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/quickstart failed: POST \/api\/v1\/repos\/webapp\/uploads answered 413: .*INGEST_MAX_UPLOAD_BYTES/);
    expect(r.stderr).not.toContain("== ingest");
    expect(r.stdout).toBe("");
  }, 1_600_000);
});
