/**
 * The fault suite with real processes: `codesynapse serve` and two
 * `codesynapse worker` processes on a private PostgreSQL server and a private
 * Redis (so restarting them disturbs no other suite).
 * - PostgreSQL restarts (`pg_ctl restart -m fast`) while jobs run: no process
 *   dies, no job is lost, submissions made after it returns complete.
 * - Redis restarts (it keeps nothing: every waiting message is lost): every job
 *   still completes, re-dispatched from its row.
 * Printed: the seconds to recover after each server returns.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { CodeSynapseError, type CodeSynapseClient } from "@codesynapse/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeWithService, probeService } from "../support/services";
import { registerThread } from "../support/http";
import { waitFor } from "../support/jobs";
import { postgresBinDir, startPrivatePostgres, type PrivatePostgres } from "../support/private-postgres";
import { redisServerBinary, startPrivateRedis, type PrivateRedis } from "../support/private-redis";
import { BIN, cleanEnv, runCli, startServer, type Started } from "../support/process";

const TERMINAL = ["succeeded", "failed", "refused", "canceled", "abandoned"];
const status = {
  ...(await probeService("postgres")),
  ...(postgresBinDir() && redisServerBinary() ? {} : { available: false, reason: "PostgreSQL server binaries or redis-server not installed" }),
};

interface Proc {
  child: ChildProcess;
  output: () => string;
}

/**
 * `codesynapse worker --pools ai`, ready once it logs that its pools started. Its metrics server
 * takes a free port (METRICS_PORT=0): a worker whose port is taken refuses to start, and other
 * test files' workers run at the same time.
 */
async function startWorker(env: NodeJS.ProcessEnv): Promise<Proc> {
  const child = spawn(process.execPath, [BIN, "worker", "--pools", "ai"], { env: { LOG_LEVEL: "info", METRICS_PORT: "0", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += String(d)));
  child.stderr!.on("data", (d) => (out += String(d)));
  await waitFor(async () => out.includes("worker pools started") || child.exitCode !== null, 60_000, 50);
  if (child.exitCode !== null) throw new Error(`worker did not start:\n${out}`);
  return { child, output: () => out };
}

describeWithService(status, "faults with real processes: PostgreSQL and Redis restarts", () => {
  let pg: PrivatePostgres;
  let redis: PrivateRedis;
  let env: NodeJS.ProcessEnv;
  let api: Started;
  const workers: Proc[] = [];
  let thread: CodeSynapseClient;
  let repo: string;

  const admin = async (...args: string[]) => {
    const r = await runCli(["admin", ...args, "--json"], env);
    if (r.code !== 0) throw new Error(r.stderr);
    return JSON.parse(r.stdout.trim());
  };
  const submit = async (): Promise<string> => (await thread.submit("ai-tasks", repo, { task: "question", question: "where is verifyToken?" })).job_id;
  /** Submits, retrying while the API answers 503 (the database is on its way back). */
  const submitRetrying = async (): Promise<string> =>
    waitFor(async () => {
      try {
        return await submit();
      } catch (err) {
        if (!(err instanceof CodeSynapseError && err.status === 503)) throw err;
        return undefined;
      }
    }, 30_000, 100);
  const statuses = async (ids: string[]) => {
    const out: Record<string, number> = {};
    for (const id of ids) {
      const s = await thread.job(id).then(
        (j) => j.status as string,
        (err: unknown) => {
          if (err instanceof CodeSynapseError && err.status !== undefined) return `http_${err.status}`;
          throw err;
        },
      );
      out[s] = (out[s] ?? 0) + 1;
    }
    return out;
  };
  const allTerminal = async (ids: string[], ms: number) =>
    waitFor(async () => {
      const s = await statuses(ids);
      return Object.keys(s).every((k) => TERMINAL.includes(k)) && s;
    }, ms, 250);
  const signalWorkers = (sig: NodeJS.Signals) => workers.forEach((w) => w.child.kill(sig));
  const alive = () => [api.child, ...workers.map((w) => w.child)].filter((c) => c.exitCode === null && c.signalCode === null).length;

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    redis = await startPrivateRedis();
    env = cleanEnv({ DATABASE_URL: pg.url, REDIS_URL: redis.url, JOB_LEASE_MS: "3000", JOB_RECONCILE_MS: "500", JOB_STALE_MS: "2000", SHUTDOWN_DRAIN_MS: "2000" });
    await runCli(["migrate"], env);
    const { org_id } = await admin("create-org", "--name", "Faults");
    const { user_id } = await admin("create-user", "--email", "faults@acme.test");
    await admin("add-member", "--org", org_id, "--user", user_id, "--role", "owner");
    const { api_key } = await admin("create-api-key", "--org", org_id, "--user", user_id);
    repo = (await admin("create-repo", "--org", org_id, "--name", "faults")).repo_id;
    await admin("grant", "--repo", repo, "--user", user_id, "--level", "write");
    api = await startServer(["serve"], env);
    workers.push(await startWorker(env), await startWorker(env));
    thread = (await registerThread(api.url, api_key)).client;
  }, 240_000);
  afterAll(async () => {
    signalWorkers("SIGCONT");
    for (const p of [api?.child, ...workers.map((w) => w.child)]) p?.kill("SIGKILL");
    await redis?.stop();
    pg?.stop();
  });

  it("a PostgreSQL restart while jobs run: no process dies, no job is lost, new submissions complete", async () => {
    const before: string[] = [];
    signalWorkers("SIGSTOP"); // the jobs wait, so they are in flight when the server goes away
    for (let i = 0; i < 40; i++) before.push(await submit());
    signalWorkers("SIGCONT");
    pg.restart();
    const back = Date.now();
    const firstAfter = await submitRetrying();
    const submitRecoveredS = (Date.now() - back) / 1000;
    const after = [firstAfter];
    for (let i = 0; i < 19; i++) after.push(await submit());
    const done = await allTerminal([...before, ...after], 60_000);
    const recoveredS = (Date.now() - back) / 1000;
    console.log(
      `[postgres restart] processes alive ${alive()}/3; ${before.length} jobs before, ${after.length} after: ${JSON.stringify(done)}; ` +
        `submissions accepted again ${submitRecoveredS.toFixed(2)} s and every job terminal ${recoveredS.toFixed(2)} s after the server returned`,
    );
    expect(alive()).toBe(3);
    expect(done).toEqual({ succeeded: before.length + after.length });
  }, 180_000);

  it("a Redis restart that loses every message: every job still completes, from its row", async () => {
    const ids: string[] = [];
    signalWorkers("SIGSTOP"); // the messages wait in Redis, and are lost with it
    for (let i = 0; i < 30; i++) ids.push(await submit());
    await redis.restart();
    signalWorkers("SIGCONT");
    const back = Date.now();
    for (let i = 0; i < 10; i++) ids.push(await submitRetrying());
    const done = await allTerminal(ids, 60_000);
    console.log(`[redis restart] processes alive ${alive()}/3; ${JSON.stringify(done)}; every job terminal ${((Date.now() - back) / 1000).toFixed(2)} s after Redis returned`);
    expect(alive()).toBe(3);
    expect(done).toEqual({ succeeded: ids.length });
  }, 180_000);
});
