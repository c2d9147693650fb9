/**
 * A server command whose port is taken — `start` and `serve` on PORT, `worker` on METRICS_PORT —
 * stops at once, non-zero, with one line naming the port and the variable. It never logs
 * "listening", starts no pool, and writes no server.json: the admin CLI keeps talking to the
 * server that holds the port and the data directory. Real processes on real ports.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, runCli, startServer } from "../support/process";

interface Outcome {
  /** The exit code, or "started" when the process said it listens or runs pools (it is then stopped). */
  code: number | "started";
  out: string;
  stderr: string;
  ms: number;
}

/** Runs a server command until it exits or reports that it started, whichever comes first. */
function runUntilStartedOrExit(args: string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const began = Date.now();
    const child = spawn(process.execPath, [BIN, ...args], { env: { LOG_LEVEL: "info", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let stderr = "";
    let started = false;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`neither exited nor started: ${args.join(" ")}\n${out}\n${stderr}`));
    }, 180_000);
    const look = () => {
      if (!started && /"msg":"(listening|worker pools started)"/.test(out)) {
        started = true;
        child.kill("SIGKILL");
      }
    };
    child.stdout.on("data", (d) => {
      out += String(d);
      look();
    });
    child.stderr.on("data", (d) => {
      stderr += String(d);
      look();
    });
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code: started ? "started" : (code ?? -1), out, stderr, ms: Date.now() - began });
    });
  });
}

/** Another process's listener on a free port of 127.0.0.1 (this test's own process). */
async function holdPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  if (typeof addr !== "object" || !addr) throw new Error("no port");
  return { port: addr.port, server };
}

const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), "codesynapse-port-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The one line a refused start prints, and nothing that says it started. */
function expectRefused(r: Outcome, port: number, variable: string): void {
  expect(r.code, `${r.out}\n${r.stderr}`).not.toBe("started");
  expect(r.code).not.toBe(0);
  expect(r.stderr.trim().split("\n")).toEqual([expect.stringMatching(new RegExp(`port ${port} on 127\\.0\\.0\\.1 \\(${variable}\\) is already in use.*set ${variable} to a free port`))]);
  expect(r.out).not.toMatch(/"msg":"(listening|worker pools started|migrations applied)"/);
}

describe("a server command whose port is taken", () => {
  it.each([["start"], ["serve"]])("`%s` on a taken PORT exits at once naming PORT, writes no server.json", async (command) => {
    const held = await holdPort();
    try {
      const dir = dataDir();
      const r = await runUntilStartedOrExit([command], cleanEnv({ CODESYNAPSE_DATA_DIR: dir, PORT: String(held.port) }));
      console.log(`[port-taken] ${command}: exit ${r.code} after ${r.ms} ms`);
      expectRefused(r, held.port, "PORT");
      expect(() => readFileSync(path.join(dir, "server.json"))).toThrow(/ENOENT/);
    } finally {
      held.server.close();
    }
  });

  it("`worker` on a taken METRICS_PORT exits at once naming METRICS_PORT and starts no pool", async () => {
    const held = await holdPort();
    try {
      const r = await runUntilStartedOrExit(["worker", "--pools", "ingest"], cleanEnv({ CODESYNAPSE_DATA_DIR: dataDir(), METRICS_PORT: String(held.port) }));
      console.log(`[port-taken] worker: exit ${r.code} after ${r.ms} ms`);
      expectRefused(r, held.port, "METRICS_PORT");
    } finally {
      held.server.close();
    }
  });

  it("a second `start` on the first one's data directory and port leaves the first in charge", async () => {
    const dir = dataDir();
    const env = cleanEnv({ CODESYNAPSE_DATA_DIR: dir });
    const first = await startServer(["start"], env, 180_000);
    try {
      const port = Number(new URL(first.url).port);
      const announced = readFileSync(path.join(dir, "server.json"), "utf8");
      const second = await runUntilStartedOrExit(["start"], { ...env, PORT: String(port) });
      expectRefused(second, port, "PORT");
      // server.json still names the first server, and the admin CLI reaches it.
      expect(readFileSync(path.join(dir, "server.json"), "utf8")).toBe(announced);
      expect(JSON.parse(announced).pid).toBe(first.child.pid);
      const org = await runCli(["admin", "create-org", "--name", "StillFirst", "--json"], env);
      expect(org.code, org.stderr).toBe(0);
      expect(JSON.parse(org.stdout).org_id).toMatch(/^org_/);
    } finally {
      expect(await first.stop()).toBe(0);
    }
  });
});
