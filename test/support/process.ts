/** Spawning the real `codesynapse` command for end-to-end tests. */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export const BIN = path.resolve(import.meta.dirname, "../../bin/codesynapse.js");

/** The environment a fresh user has: no service URLs inherited from the test runner. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(DATABASE_URL|TEST_DATABASE_URL|REDIS_|NEO4J_|MILVUS_|HUGEGRAPH_|CODESYNAPSE_|MEMORY_STORE|VECTOR_INDEX|PORT|HOST|LOG_LEVEL|REQUIRE_SERVICES|VITEST|OTEL_|METRICS_|PROMTOOL)/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From spawn to exit. */
  ms: number;
}

export interface RunOptions {
  /** Written to the child's stdin, which is then closed (unless `keepStdinOpen`); without it stdin is closed from the start. */
  stdin?: string;
  keepStdinOpen?: boolean;
  cwd?: string;
}

/** Runs a Node script to its end, killed after `timeoutMs`. */
export function runScript(file: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000, opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [file, ...args], { env, ...(opts.cwd ? { cwd: opts.cwd } : {}), stdio: [opts.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    if (opts.stdin !== undefined) {
      child.stdin!.write(opts.stdin);
      if (!opts.keepStdinOpen) child.stdin!.end();
    }
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`timed out: ${args.join(" ")}\n${stderr}`));
    }, timeoutMs);
    child.once("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<RunResult> {
  return runScript(BIN, args, env, timeoutMs);
}

export interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  stop(): Promise<number | null>;
}

/**
 * Starts a Node script's server command and waits until one of `ready` appears in its log: the
 * "listening" line gives the URL; another ready line (a worker without a port of its own) gives "".
 */
export function startScript(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  opts: { timeoutMs?: number; ready?: readonly string[] } = {},
): Promise<Started> {
  const ready = opts.ready ?? ['"msg":"listening"'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { env: { LOG_LEVEL: "info", PORT: "0", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${args[0]} did not start:\n${out}`));
    }, opts.timeoutMs ?? 90_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      for (const line of out.split("\n")) {
        if (!ready.some((r) => line.includes(r))) continue;
        try {
          const url = line.includes('"msg":"listening"') ? (JSON.parse(line).url as string) : "";
          clearTimeout(timer);
          resolve({
            child,
            url,
            output: () => out,
            stop: () =>
              new Promise((res) => {
                if (child.exitCode !== null) return res(child.exitCode);
                child.once("exit", (code) => res(code));
                child.kill("SIGTERM");
              }),
          });
          return;
        } catch {
          /* partial line */
        }
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} exited with ${code}:\n${out}`));
    });
  });
}

/** Starts `codesynapse start` (or another server command) and waits for its "listening" log line. */
export function startServer(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 90_000): Promise<Started> {
  return startScript(BIN, args, env, { timeoutMs });
}
