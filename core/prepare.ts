/**
 * Named prepared statements, named where they are sent: the job claim, the rechecks and the
 * finish, authorize()'s read, the job poll and list, session memory's load and its commit's checks,
 * the session vectors' scope read. A call site runs its query through
 * `executePrepared(db, "claim_jobs", query)` (a query builder or a `sql` template) instead of
 * `.execute()`: the query is compiled as usual and handed to `db.executeQuery` with a statement
 * name on the compiled query, which Kysely passes unchanged to the connection. The database's own
 * drivers (db/drivers.ts) send a named query as a NAMED prepared statement — prepared once per
 * connection, then only bound and executed (on PGlite through db/pglite-prepared.ts) — so the
 * server stops planning it again on every call: for authorize()'s seven-join read, planning was
 * ~85% of the statement's server time; for the job poll's five-predicate read, 165-187 µs of
 * backend CPU per call became 55-77 µs. A query without a name runs as an unnamed statement.
 *
 * The server-side name is `<given name>_<hash of the text>` (16 hex digits of SHA-1), computed
 * once per text: a call site whose text varies (optional filters, a batch's row count) gets one
 * statement per text, and two texts never share a name (PostgreSQL refuses a second text under a
 * name a connection has prepared). Only for statements of a bounded number of texts (each text is
 * a statement kept on every connection) over tables whose shape migrations do not change while
 * the process runs. Here, in core/, so that core and queues name their statements without loading
 * a database driver.
 */
import { createHash } from "node:crypto";
import type { CompiledQuery, Kysely, QueryExecutorProvider, QueryResult } from "kysely";

/** A compiled query with the name of the prepared statement it runs as. */
export interface NamedQuery<R = unknown> extends CompiledQuery<R> {
  readonly statementName: string;
}

/** What executePrepared runs: a query builder (its `compile()`) or a `sql` template (`compile(db)`). */
export interface Preparable<R> {
  compile(executorProvider: QueryExecutorProvider): CompiledQuery<R>;
}

/** A given name: short enough that the server name (name, `_`, 16 hex digits) stays within PostgreSQL's 63 bytes. */
const GIVEN_NAME = /^[a-z][a-z0-9_]{0,39}$/;
/** Server names already computed, by given name and then by text: a hot text is hashed once, not per call. */
const names = new Map<string, Map<string, string>>();
let count = 0;
const MAX_NAMES = 4096;

/** The server-side statement name of `text` run under `name`. */
export function statementNameFor(name: string, text: string): string {
  let texts = names.get(name);
  let server = texts?.get(text);
  if (server !== undefined) return server;
  if (!GIVEN_NAME.test(name)) throw new Error(`invalid prepared statement name ${JSON.stringify(name)}: lower case, digits and _, at most 40 characters`);
  if (count >= MAX_NAMES) {
    names.clear();
    count = 0;
    texts = undefined;
  }
  if (!texts) names.set(name, (texts = new Map()));
  server = `${name}_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`;
  texts.set(text, server);
  count++;
  return server;
}

/** The prepared statement name a compiled query carries, if any (read by the drivers). */
export function statementName(query: CompiledQuery): string | undefined {
  return (query as Partial<NamedQuery>).statementName;
}

/** `query` to be run as the named prepared statement `name` (see statementNameFor). */
export function prepared<R>(name: string, query: CompiledQuery<R>): NamedQuery<R> {
  return { ...query, statementName: statementNameFor(name, query.sql) };
}

/**
 * Runs `query` on `db` as the named prepared statement `name`: rows typed as `.execute()` types
 * them, and `numAffectedRows` for an insert, update or delete. `db` is the handle the query was
 * built from (a transaction's, inside one).
 */
export function executePrepared<R>(db: Kysely<any>, name: string, query: Preparable<R>): Promise<QueryResult<R>> {
  return db.executeQuery(prepared(name, query.compile(db)));
}
