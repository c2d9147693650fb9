/**
 * Opens the relational store: PostgreSQL through `pg` when a URL is given,
 * otherwise PGlite (WASM PostgreSQL) in a data directory, or in memory.
 * The same migrations and queries run on both, through Kysely over drivers of
 * our own (./drivers.ts): a statement named at its call site (core/prepare.ts)
 * runs as a named prepared statement on either store.
 *
 * PGlite is one connection in one process. A data directory is therefore
 * guarded by a pid lock file: a second process that tries to open it gets a
 * clear `data_dir_in_use` error instead of a corrupted database.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Kysely, sql } from "kysely";
import { Migrator } from "kysely/migration";
import pg from "pg";
import { AppError } from "../core/errors";
import { migrations } from "./migrations/index";
import { CHANNEL_PATTERN, listenResilient } from "./pg-listener";
import { openPGlite } from "./pglite";
import { pgliteDialect, postgresDialect } from "./drivers";
import type { PGliteUpgrade } from "./pglite-upgrade";
import type { Database } from "./schema";

export type DatabaseKind = "pglite" | "postgres";

export interface OpenDatabase {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** Where it lives, without credentials (for logs and messages). */
  location: string;
  close(): Promise<void>;
  /**
   * LISTEN on a channel (the job dispatcher's wake-up): a dedicated connection
   * on PostgreSQL that reconnects by itself (db/pg-listener.ts) and then calls
   * `onReconnect`, the one instance on PGlite. Returns the unlisten function.
   */
  listen?(channel: string, onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
}

export interface DatabaseOptions {
  /** postgres://… ; when absent PGlite is used. */
  url?: string | undefined;
  /** PGlite data directory; `undefined` with no url = in memory. */
  dataDir?: string | undefined;
  /** PostgreSQL only: the schema to use as search_path (tests isolate by schema). */
  schema?: string | undefined;
  /** PostgreSQL only: pool size. */
  poolSize?: number;
  /** PGlite only: told when the data directory's cluster was upgraded from an older PGlite (db/pglite-upgrade.ts). */
  onUpgrade?: (upgrade: PGliteUpgrade) => void;
}

const LOCK_FILE = "codesynapse.pid";

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the data directory's lock or throws `data_dir_in_use`. Returns the release function. */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  let holder: number | undefined;
  try {
    holder = Number(readFileSync(file, "utf8").trim());
  } catch {
    holder = undefined;
  }
  if (holder && holder !== process.pid && pidAlive(holder)) {
    throw new AppError("data_dir_in_use", {
      message:
        `The embedded database in ${dir} is in use by a running CodeSynapse process (pid ${holder}). ` +
        "Stop it first, or point both at a PostgreSQL server with DATABASE_URL.",
    });
  }
  writeFileSync(file, String(process.pid));
  return () => {
    try {
      if (Number(readFileSync(file, "utf8").trim()) === process.pid) rmSync(file);
    } catch {
      /* already gone */
    }
  };
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres";
  }
}

export async function openDatabase(opts: DatabaseOptions): Promise<OpenDatabase> {
  if (opts.url) {
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    pool.on("connect", (client) => {
      // A client the server drops while it is checked out (inside a transaction, between two
      // statements) emits 'error' too; its next statement fails with a transient error, and the
      // pool discards it on release.
      client.on("error", () => undefined);
    });
    // An idle client whose server went away (restart, failover, pg_terminate_backend) is
    // dropped by the pool; without a listener its 'error' event would end the process.
    // The next query opens a new connection, and callers retry transient errors (core/retry.ts).
    pool.on("error", () => undefined);
    // Fail fast with a clear message when the server is not reachable.
    try {
      const c = await pool.connect();
      c.release();
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw new AppError("unavailable", { message: `PostgreSQL at ${redactUrl(opts.url)} is not reachable.`, cause: err });
    }
    const db = new Kysely<Database>({ dialect: postgresDialect(pool) });
    const config: pg.ClientConfig = { connectionString: opts.url, ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}) };
    const listen = (channel: string, onPayload: (payload: string) => void, onReconnect?: () => void) =>
      listenResilient({ config, channel, onPayload, ...(onReconnect ? { onReconnect } : {}) });
    return { db, kind: "postgres", location: redactUrl(opts.url), close: () => db.destroy(), listen };
  }

  const release = opts.dataDir ? lockDataDir(opts.dataDir) : () => undefined;
  try {
    const pglite = await openPGlite(opts.dataDir, opts.onUpgrade ? { onUpgrade: opts.onUpgrade } : {});
    const db = new Kysely<Database>({ dialect: pgliteDialect(pglite) });
    return {
      db,
      kind: "pglite",
      location: opts.dataDir ? path.resolve(opts.dataDir) : "memory",
      listen: async (channel: string, onPayload: (payload: string) => void) => {
        if (!CHANNEL_PATTERN.test(channel)) throw new Error("invalid channel name");
        const unlisten = await pglite.listen(channel, onPayload);
        return async () => {
          if (!pglite.closed) await unlisten().catch(() => undefined);
        };
      },
      close: async () => {
        await db.destroy();
        if (!pglite.closed) await pglite.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

/** Runs every pending migration (Kysely's migrator takes its own lock). */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // Name the schema of the migration tables: Kysely's existence check otherwise matches a
  // `kysely_migration_lock` in ANY schema of the database (e.g. a parallel test's schema) and
  // then fails to find one in its own search_path.
  const current = await sql<{ s: string }>`select current_schema() as s`.execute(db);
  const migrationTableSchema = current.rows[0]?.s;
  const migrator = new Migrator({ db: ownSchemaOnly(db), provider: { getMigrations: async () => migrations }, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * The database as the migrator sees it: its existence checks list the tables and schemas of
 * the current schema only. Kysely's own introspector lists every table of every schema and asks
 * `pg_get_serial_sequence` about each column, so a table another client drops meanwhile (a
 * neighbouring application, a parallel test's schema) failed the migration with "relation …
 * does not exist" — and the listing grows with the whole database.
 */
function ownSchemaOnly(db: Kysely<any>): Kysely<any> {
  const introspection = {
    getSchemas: async () => (await sql<{ name: string }>`select nspname as name from pg_namespace where nspname = current_schema()`.execute(db)).rows,
    getTables: async () =>
      (await sql<{ name: string; schema: string }>`select c.relname as name, n.nspname as schema from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v')`.execute(db)).rows.map((t) => ({
        ...t,
        isView: false,
        isForeign: false,
        columns: [],
      })),
    getMetadata: async () => ({ tables: await introspection.getTables() }),
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "introspection") return introspection;
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
