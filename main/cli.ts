/**
 * The `codesynapse` command line (RUN-5).
 *   start            migrate, serve the API and run every worker pool (npm start)
 *   serve            the API alone
 *   worker --pools   chosen worker pools
 *   mcp              the stdio MCP server
 *   hook <event>     a coding assistant's hook: registers its thread, hands over its turns (main/hook/)
 *   setup <runtime>  writes a coding assistant's MCP and hook configuration (main/setup/)
 *   migrate          apply pending migrations
 *   admin <command>  accounts and webhooks (each takes --json): the catalog's commands, their
 *                    flags the operation's input (api/cli-operations.ts); through the running
 *                    server when one holds the embedded data directory or CODESYNAPSE_URL is set
 *                    (main/remote-admin.ts), otherwise on the database directly
 *
 * The server's modules (express, the drivers, the worker pools) are imported only by the
 * commands that run them, so a remote admin command starts in a fraction of a second.
 */
import { parseArgs } from "node:util";
import type { Config } from "../core/config";
import { AppError, coerceError } from "../core/errors";
import { ADMIN_USAGE, cliCommands, cliInput, runLocal } from "../api/cli-operations";
import { remoteTarget, RemoteError, runRemote } from "./remote-admin";

const USAGE = `usage: codesynapse <start|serve|worker --pools a,b|mcp|migrate|hook <event> [--runtime R] [--repo REPO]|setup <claude-code|codex|vscode|cursor> [--print]|admin <command> [--json] [--offline]>
admin commands:
${Object.entries(ADMIN_USAGE)
  .map(([name, usage]) => `  admin ${name} ${usage}`)
  .join("\n")}`;

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

/**
 * A command name the CLI does not have: the usage on stderr and exit 2; under `--json` also
 * the one JSON object on stdout, `{"error":{"code":"unknown_command",…}}` (never the name given).
 */
function unknownCommand(argv: string[]): never {
  if (argv.includes("--json")) {
    const e = new AppError("unknown_command");
    process.stdout.write(`${JSON.stringify({ error: { code: e.code, message: e.message } })}\n`);
  }
  fail(USAGE, 2);
}

/** The configuration (zod, loaded on first use: a remote admin command never needs it). */
async function config(): Promise<Config> {
  const { ConfigError, loadConfig } = await import("../core/config");
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message, 2);
    throw err;
  }
}

async function runServer(opts: { serve: boolean; pools: string[] }): Promise<void> {
  const cfg = await config();
  const { createLogger } = await import("../core/log");
  const logger = createLogger({ level: cfg.LOG_LEVEL });
  const { startPlatform } = await import("./runtime");
  const { flushTelemetry } = await import("../api/telemetry/flush");
  let platform;
  try {
    platform = await startPlatform(cfg, { ...opts, logger });
  } catch (err) {
    const e = coerceError(err);
    fail(e.code === "internal" ? `start-up failed: ${(err as Error).message}` : e.message);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, drainMs: cfg.SHUTDOWN_DRAIN_MS }, "shutting down");
    // The drain is bounded; a stop that hangs past it anyway (a store that never answers) still ends the process.
    setTimeout(() => {
      logger.error({ code: "shutdown_timeout" }, "shutdown did not finish in time; exiting");
      process.exit(1);
    }, cfg.SHUTDOWN_DRAIN_MS + 10_000).unref();
    platform
      .stop()
      .then(() => flushTelemetry())
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

function printResult(result: object, json: boolean): void {
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else for (const [k, v] of Object.entries(result)) process.stdout.write(`${k}: ${typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)}\n`);
}

async function runAdmin(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  const op = name === undefined ? undefined : cliCommands().get(name);
  if (!op) unknownCommand(argv);
  const json = rest.includes("--json");
  try {
    const input = cliInput(op, rest);
    // Read straight from the environment (the default as in core/config.ts), so that the remote path loads nothing more.
    const target = rest.includes("--offline") ? undefined : remoteTarget(process.env, process.env.CODESYNAPSE_DATA_DIR || "./.codesynapse");
    if (target) {
      printResult(await runRemote(target, op, input), json);
      return;
    }
    const cfg = await config();
    const { createLogger } = await import("../core/log");
    const logger = createLogger({ level: "warn", destination: "stderr" });
    const [{ openStores }, { systemClock }, { identityStore }, { relationalStores }] = await Promise.all([
      import("./runtime"),
      import("../core/clock"),
      import("../db/sql/identity/store"),
      import("../db/stores"),
    ]);
    const database = await openStores(cfg, logger);
    try {
      const services = { db: database.db, identity: identityStore(database.db), stores: relationalStores(database.db), clock: systemClock, config: cfg, logger };
      printResult(await runLocal(op, input, services), json);
    } finally {
      await database.close();
    }
  } catch (err) {
    const e = err instanceof RemoteError ? err : err instanceof AppError ? err : coerceError(err);
    const message = e.code === "internal" && !(err instanceof RemoteError) ? `${(err as Error).message}` : e.message;
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: e.code, message } })}\n`);
    fail(`error: ${message}`);
  }
}

async function main(argv: string[]): Promise<void> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case "start":
      return runServer({ serve: true, pools: (await config()).WORKER_POOLS.split(",").filter(Boolean) });
    case "serve":
      return runServer({ serve: true, pools: [] });
    case "worker": {
      const { values } = parseArgs({ args: rest, options: { pools: { type: "string" } } });
      const pools = (values.pools ?? (await config()).WORKER_POOLS).split(",").map((p) => p.trim()).filter(Boolean);
      return runServer({ serve: false, pools });
    }
    case "migrate": {
      const cfg = await config();
      const { createLogger } = await import("../core/log");
      const logger = createLogger({ level: "warn", destination: "stderr" });
      const { openStores } = await import("./runtime");
      try {
        const database = await openStores(cfg, logger);
        await database.close();
        console.log("migrations: up to date");
      } catch (err) {
        fail(`migrate failed: ${coerceError(err).code === "internal" ? (err as Error).message : coerceError(err).message}`);
      }
      return;
    }
    case "mcp": {
      // Stdio MCP (MCP-3): stdout is protocol only, so nothing above may print before this.
      const { runStdio } = await import("../api/mcp/stdio");
      return runStdio();
    }
    case "hook": {
      // A coding assistant's hook (main/hook/run.ts): never blocks it, always exits 0.
      const { runHook } = await import("./hook/run");
      return process.exit(await runHook(rest, process.env, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }));
    }
    case "setup": {
      const { runSetup } = await import("./setup/run");
      return process.exit(await runSetup(rest, process.env, { stdout: process.stdout, stderr: process.stderr }));
    }
    case "admin":
      return runAdmin(rest);
    default:
      if (cmd === undefined || cmd === "help" || cmd === "--help") fail(USAGE, 0);
      unknownCommand(argv);
  }
}

await main(process.argv.slice(2));
