/**
 * Upgrading an embedded data directory written by an older PGlite whose PostgreSQL major
 * differs from the running one's (PGlite 0.4 is PostgreSQL 17; 0.5 is 18, which cannot open a
 * 17 cluster: "PGlite failed to initialize properly"). No pg_upgrade exists for PGlite, and
 * pglite-tools' pg_dump pins one exact PGlite as its peer, so the copy is logical and ours:
 *
 * 1. copy: the old cluster is opened with the old PGlite (the `pglite-pg17` dependency, an npm
 *    alias of @electric-sql/pglite 0.4.6). A new cluster is made in `<dir>/.pglite-upgrade/` by
 *    the running PGlite (the build's template, else initdb), our migrations are run on it up to
 *    the last one the old database applied (one this code does not know fails the upgrade),
 *    each table's columns are compared with the old one's, and every table of `public` is copied
 *    with COPY TO/FROM '/dev/blob' in one transaction (triggers and foreign keys off, as in a
 *    restore), the sequences are set to their old values, and every table's row count and
 *    content digest are compared. Only then is `<dir>/.pglite-upgrade.json` written (phase
 *    "copied").
 * 2. swap: the old cluster's entries move into `<dir>/pglite-backup-pg<old>-<time>/` (PG_VERSION
 *    first), the state file says "moved-out", the new cluster's entries move into `<dir>`
 *    (PG_VERSION last), the scratch directory and then the state file are removed.
 *
 * States on disk and what a start does with them (the caller holds the data directory's lock):
 * - PG_VERSION of another major, no state file: not started (or the copy died): the old cluster
 *   is whole in `<dir>`; a stale scratch directory is discarded and the copy starts over.
 * - state "copied": the new cluster is whole in the scratch directory; the swap (re)starts:
 *   whatever old entry is still in `<dir>` moves to the backup.
 * - state "moved-out": the old cluster is whole in the backup; the remaining new entries move in.
 * Invariant: at every moment a whole cluster holding all the data exists — in `<dir>` until the
 * state file says "copied", in the scratch directory or `<dir>` after it — and the backup keeps
 * the old cluster, openable by the old PGlite, until the operator deletes it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { Kysely, PGliteDialect } from "kysely";
import { Migrator } from "kysely/migration";
import { AppError } from "../core/errors";
import { migrations } from "./migrations/index";

/** What {@link upgradeDataDir} did, for the caller's log. */
export interface PGliteUpgrade {
  /** PostgreSQL majors: the cluster's before, the running PGlite's after. */
  from: string;
  to: string;
  /** The old cluster, kept: a directory inside the data directory. */
  backup: string;
  tables: number;
  rows: number;
}

interface UpgradeState {
  phase: "copied" | "moved-out";
  from: string;
  to: string;
  backup: string;
  tables: number;
  rows: number;
}

export const SCRATCH = ".pglite-upgrade";
export const STATE_FILE = ".pglite-upgrade.json";
/** Entries of the data directory that are not the cluster's and stay where they are. */
const isOurs = (name: string) => name === SCRATCH || name === STATE_FILE || name === "codesynapse.pid" || name.startsWith("pglite-backup-") || name.startsWith(".pglite-");

/** The PostgreSQL majors this code can upgrade from, and the package that opens each. */
const OLD_PGLITE: Record<string, string> = { "17": "pglite-pg17" };

const clusterMajor = (dir: string): string | undefined => {
  try {
    return readFileSync(path.join(dir, "PG_VERSION"), "utf8").trim();
  } catch {
    return undefined;
  }
};

function readState(dir: string): UpgradeState | undefined {
  const file = path.join(dir, STATE_FILE);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, "utf8")) as UpgradeState;
}

function writeState(dir: string, state: UpgradeState): void {
  const tmp = path.join(dir, `${STATE_FILE}.${process.pid}.tmp`);
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, path.join(dir, STATE_FILE));
}

/** Whether `dir` holds an upgrade under way or a cluster of another PostgreSQL major than `runningMajor`. */
export function needsUpgrade(dir: string, runningMajor: string): boolean {
  if (readState(dir)) return true;
  const major = clusterMajor(dir);
  return major !== undefined && major !== runningMajor;
}

const fail = (message: string, cause?: unknown) =>
  new AppError("data_dir_upgrade_failed", { message: `The embedded database could not be upgraded and is unchanged: ${message}`, ...(cause === undefined ? {} : { cause }) });

/** Tables of `public` with their copyable columns (name and type, in order), from either PGlite. */
async function tables(pg: Pick<PGlite, "query">): Promise<Map<string, string[]>> {
  const { rows } = await pg.query<{ t: string; cols: string[] }>(
    `select c.relname as t, array_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) order by a.attnum) as cols
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      where n.nspname = 'public' and c.relkind in ('r', 'p')
      group by c.relname order by c.relname`,
  );
  return new Map(rows.map((r) => [r.t, r.cols]));
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Row count and an order-independent digest of every row's text, per table. */
async function digest(pg: Pick<PGlite, "query">, table: string): Promise<string> {
  const { rows } = await pg.query<{ n: number; d: string | null }>(
    `select count(*)::int as n, md5(string_agg(md5(t::text), '' order by md5(t::text))) as d from ${quote(table)} t`,
  );
  return `${rows[0]!.n}:${rows[0]!.d ?? ""}`;
}

/**
 * The copy (see above). `openNew(dir)` opens the running PGlite on a new cluster in `dir`
 * (db/pglite.ts: from the template or initdb, with its start parameters).
 */
export async function copyToNewCluster(dir: string, runningMajor: string, openNew: (dir: string) => Promise<PGlite>): Promise<UpgradeState> {
  const from = clusterMajor(dir)!;
  const pkg = OLD_PGLITE[from];
  if (!pkg) throw fail(`its cluster is PostgreSQL ${from}; this version opens ${runningMajor} and upgrades only from ${Object.keys(OLD_PGLITE).join(", ")}.`);
  const scratch = path.join(dir, SCRATCH);
  rmSync(scratch, { recursive: true, force: true });

  const { PGlite: OldPGlite } = (await import(pkg)) as typeof import("pglite-pg17");
  const old = await OldPGlite.create(dir, {
    startParams: [...OldPGlite.defaultStartParams, "-c", "shared_buffers=16MB", "-c", "work_mem=2MB"],
  }).catch((err: unknown) => Promise.reject(fail(`PostgreSQL ${from} did not open it.`, err)));
  let neu: PGlite | undefined;
  try {
    const schemas = await old.query<{ n: string }>(
      `select distinct n.nspname as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and n.nspname not in ('public', 'pg_catalog', 'information_schema', 'pg_toast')`,
    );
    if (schemas.rows.length > 0) throw fail(`it has tables outside the public schema (${schemas.rows.map((r) => r.n).join(", ")}).`);
    const oldTables = await tables(old);
    const applied = oldTables.has("kysely_migration")
      ? (await old.query<{ name: string }>("select name from kysely_migration order by name")).rows.map((r) => r.name)
      : [];
    const unknown = applied.filter((name) => !(name in migrations));
    if (unknown.length > 0) throw fail(`it was migrated by a newer CodeSynapse (${unknown.join(", ")}).`);

    mkdirSync(scratch, { recursive: true });
    neu = await openNew(scratch);
    const last = applied.at(-1);
    if (last) {
      const db = new Kysely<unknown>({ dialect: new PGliteDialect({ pglite: neu }) });
      const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema: "public" }).migrateTo(last);
      if (error) throw fail("the migrations did not run on the new cluster.", error);
      // Not db.destroy(): that would close the PGlite, which is still needed here.
    }
    const newTables = await tables(neu);
    const names = [...oldTables.keys()];
    for (const name of names) {
      if (JSON.stringify(newTables.get(name)) !== JSON.stringify(oldTables.get(name))) {
        throw fail(`table ${name} differs from what the migrations make (${(oldTables.get(name) ?? []).join(", ")}).`);
      }
    }

    const target = neu;
    let rows = 0;
    await target.transaction(async (tx) => {
      await tx.query("set local session_replication_role = replica");
      if (newTables.size > 0) await tx.query(`truncate ${[...newTables.keys()].map(quote).join(", ")}`);
      for (const name of names) {
        const cols = oldTables.get(name)!.map((c) => quote(c.slice(0, c.indexOf(" "))));
        const out = await old.query(`copy ${quote(name)} (${cols.join(", ")}) to '/dev/blob'`);
        // An empty table gives no blob; the digests below check every table either way.
        if (out.blob) await tx.query(`copy ${quote(name)} (${cols.join(", ")}) from '/dev/blob'`, [], { blob: out.blob });
      }
      const seqs = await old.query<{ s: string; v: string | null }>("select quote_ident(sequencename) as s, last_value::text as v from pg_sequences where schemaname = 'public'");
      for (const { s, v } of seqs.rows) if (v !== null) await tx.query("select setval(('public.' || $1)::regclass, $2::bigint, true)", [s, v]);
    });
    for (const name of names) {
      const [a, b] = [await digest(old, name), await digest(target, name)];
      if (a !== b) throw fail(`table ${name} did not copy whole (${a} → ${b}).`);
      rows += Number(a.slice(0, a.indexOf(":")));
    }
    await target.exec("checkpoint");
    await target.close();
    neu = undefined;
    await old.close();
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    const state: UpgradeState = { phase: "copied", from, to: runningMajor, backup: `pglite-backup-pg${from}-${stamp}`, tables: names.length, rows };
    writeState(dir, state);
    return state;
  } catch (err) {
    if (neu && !neu.closed) await neu.close().catch(() => undefined);
    if (!old.closed) await old.close().catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
    throw err instanceof AppError ? err : fail("the copy failed.", err);
  }
}

/** The swap (see above); resumes from whichever phase the state file records. */
export function swapIn(dir: string, state: UpgradeState): void {
  const scratch = path.join(dir, SCRATCH);
  const backup = path.join(dir, state.backup);
  if (state.phase === "copied") {
    mkdirSync(backup, { recursive: true });
    const old = readdirSync(dir).filter((n) => !isOurs(n));
    for (const name of old.sort((a, b) => Number(b === "PG_VERSION") - Number(a === "PG_VERSION"))) renameSync(path.join(dir, name), path.join(backup, name));
    state = { ...state, phase: "moved-out" };
    writeState(dir, state);
  }
  const incoming = existsSync(scratch) ? readdirSync(scratch) : [];
  for (const name of incoming.sort((a, b) => Number(a === "PG_VERSION") - Number(b === "PG_VERSION"))) {
    rmSync(path.join(dir, name), { recursive: true, force: true });
    renameSync(path.join(scratch, name), path.join(dir, name));
  }
  if (clusterMajor(dir) !== state.to) throw fail(`the new cluster is not in place after the swap; the old one is in ${state.backup}.`);
  rmSync(scratch, { recursive: true, force: true });
  rmSync(path.join(dir, STATE_FILE), { force: true });
}

/** Brings `dir` to the running PostgreSQL major (see above). Returns what was done, or undefined when nothing was to do. */
export async function upgradeDataDir(dir: string, runningMajor: string, openNew: (dir: string) => Promise<PGlite>): Promise<PGliteUpgrade | undefined> {
  if (!needsUpgrade(dir, runningMajor)) return undefined;
  const state = readState(dir) ?? (await copyToNewCluster(dir, runningMajor, openNew));
  swapIn(dir, state);
  return { from: state.from, to: state.to, backup: path.join(dir, state.backup), tables: state.tables, rows: state.rows };
}
