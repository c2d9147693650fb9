/**
 * The Kysely dialects of db/database.ts: Kysely's PostgreSQL compiler, adapters and introspector,
 * over drivers of our own (Kysely's `Dialect.createDriver` extension point) — for PostgreSQL over
 * a `pg` Pool, and for PGlite. Both run a query that carries a statement name (core/prepare.ts,
 * named at its call site) as a named prepared statement, and every other query as an unnamed one.
 *
 * - PostgreSQL: `{ name, text, values }` to the pool client, which parses a name once per
 *   connection and afterwards only binds and executes it. Transactions as Kysely's PostgresDriver
 *   runs them: BEGIN (with the isolation level and access mode asked for), a COMMIT answered with
 *   ROLLBACK is an AbortedTransactionError, a client whose ROLLBACK failed goes back to the pool as
 *   broken (the pool discards it), and INSERT/UPDATE/DELETE/MERGE report numAffectedRows.
 * - PGlite (one connection, in this thread): the event loop gets a turn before every statement
 *   (core/turn.ts: after TURN_MS of work without one), so a long transaction never holds every
 *   request; named statements run through db/pglite-prepared.ts; transactions through
 *   `pglite.transaction`, as Kysely's PGliteDriver runs them (its exclusive lock, its
 *   aborted-transaction error).
 */
import {
  AbortedTransactionError,
  CompiledQuery,
  createQueryId,
  IdentifierNode,
  PGliteAdapter,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  RawNode,
  type DatabaseConnection,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import type pg from "pg";
import type { PGlite, Results, Transaction as PGliteTransaction } from "@electric-sql/pglite";
import { statementName } from "../core/prepare";
import { giveTurn } from "../core/turn";
import { preparedQuery, type PreparedQuery } from "./pglite-prepared";

function dialect(adapter: DialectAdapter, driver: () => Driver): Dialect {
  return {
    createAdapter: () => adapter,
    createDriver: driver,
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

/** The error with the caller's stack after the driver's own (as Kysely's drivers extend it): a failing statement shows where it was sent from. */
function withCallerStack(err: unknown): unknown {
  if (err instanceof Error && err.stack) {
    const caller = new Error().stack;
    if (caller) err.stack += `\n${caller.slice(caller.indexOf("\n") + 1)}`;
  }
  return err;
}

function beginText(settings: TransactionSettings): string {
  if (!settings.isolationLevel && !settings.accessMode) return "begin";
  return ["start transaction", settings.isolationLevel && `isolation level ${settings.isolationLevel}`, settings.accessMode].filter(Boolean).join(" ");
}

/** SAVEPOINT, ROLLBACK TO and RELEASE, the name an identifier (Kysely's drivers compile them the same way). */
const savepointCommand =
  (command: string) =>
  async (c: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]): Promise<void> => {
    await c.executeQuery(compile(RawNode.createWithChildren([RawNode.createWithSql(`${command} `), IdentifierNode.create(name)]), createQueryId()));
  };
const savepoints = { savepoint: savepointCommand("savepoint"), rollbackToSavepoint: savepointCommand("rollback to"), releaseSavepoint: savepointCommand("release") };

/** `.stream()`: not used here (Kysely's PostgreSQL driver streams only with a cursor package, its PGlite driver not at all). */
function noStreaming(): AsyncIterableIterator<never> {
  throw new Error("streaming is not supported by this driver");
}

class PostgresConnection implements DatabaseConnection {
  /** Set when a ROLLBACK failed: the client is released as broken and runs nothing more. */
  discarded = false;
  constructor(readonly client: pg.PoolClient) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.discarded) throw new Error("PostgreSQL connection has been discarded");
    const name = statementName(query);
    const values = query.parameters as unknown[];
    try {
      const { command, rowCount, rows } = name === undefined ? await this.client.query(query.sql, values) : await this.client.query({ name, text: query.sql, values });
      if (command === "COMMIT" || command === "ROLLBACK") return { rows: [{ command } as R] };
      const affected = command === "INSERT" || command === "UPDATE" || command === "DELETE" || command === "MERGE";
      return { numAffectedRows: affected ? BigInt(rowCount ?? 0) : undefined, rows: (rows ?? []) as R[] };
    } catch (err) {
      throw withCallerStack(err);
    }
  }

  streamQuery = noStreaming;
}

class PostgresPoolDriver implements Driver {
  /** One connection object per pool client, made when the client is first handed out (Kysely notes each connection it sees). */
  readonly #connections = new WeakMap<pg.PoolClient, PostgresConnection>();
  constructor(private readonly pool: pg.Pool) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.pool.connect();
    let connection = this.#connections.get(client);
    if (!connection) this.#connections.set(client, (connection = new PostgresConnection(client)));
    return connection;
  }
  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await c.executeQuery(CompiledQuery.raw(beginText(settings)));
  }
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    const { rows } = await c.executeQuery<{ command?: string }>(CompiledQuery.raw("commit"));
    // PostgreSQL completes COMMIT with a ROLLBACK tag when an earlier error left the transaction aborted.
    if (rows[0]?.command === "ROLLBACK") throw new AbortedTransactionError();
  }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    try {
      await c.executeQuery(CompiledQuery.raw("rollback"));
    } catch (err) {
      (c as PostgresConnection).discarded = true;
      throw err;
    }
  }
  savepoint = savepoints.savepoint;
  rollbackToSavepoint = savepoints.rollbackToSavepoint;
  releaseSavepoint = savepoints.releaseSavepoint;
  async releaseConnection(c: DatabaseConnection): Promise<void> {
    const { client, discarded } = c as PostgresConnection;
    client.release(discarded);
  }
  async destroy(): Promise<void> {
    await this.pool.end();
  }
}

/** PostgreSQL through `pool` (its clients' listeners and the connect check are the opener's). */
export function postgresDialect(pool: pg.Pool): Dialect {
  return dialect(new PostgresAdapter(), () => new PostgresPoolDriver(pool));
}

class PGliteConnection implements DatabaseConnection {
  /** The open transaction (its callback is running, waiting for commit or rollback), if any. */
  #tx: { tx: PGliteTransaction; commit: () => void; rollback: (reason: unknown) => void; closed: Promise<void> } | undefined;

  constructor(
    private readonly pglite: PGlite,
    private readonly prepared: PreparedQuery,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    await giveTurn();
    const name = statementName(query);
    const values = query.parameters as unknown[];
    try {
      const r: Results<R> =
        name === undefined
          ? await (this.#tx?.tx ?? this.pglite).query<R>(query.sql, values, { rowMode: "object" })
          : ((await this.prepared(name, query.sql, values, this.#tx !== undefined)) as Results<R>);
      return { numAffectedRows: r.affectedRows != null ? BigInt(r.affectedRows) : undefined, rows: r.rows ?? [] };
    } catch (err) {
      throw withCallerStack(err);
    }
  }

  streamQuery = noStreaming;

  /** BEGIN: PGlite's own transaction (its exclusive lock), whose callback waits until commit or rollback. */
  async begin(): Promise<void> {
    let began!: (tx: PGliteTransaction) => void;
    const started = new Promise<PGliteTransaction>((resolve) => (began = resolve));
    let commit!: () => void;
    let rollback!: (reason: unknown) => void;
    const decided = new Promise<void>((resolve, reject) => {
      commit = resolve;
      rollback = reject;
    });
    const closed = this.pglite.transaction(async (tx) => {
      began(tx);
      await decided;
    });
    // A transaction that cannot begin (BEGIN fails, PGlite closed) rejects `closed` without calling back.
    this.#tx = { tx: await Promise.race([started, closed.then(() => started)]), commit, rollback, closed };
  }

  async commit(): Promise<void> {
    const t = this.#tx;
    t?.commit();
    try {
      await t?.closed;
    } catch (err) {
      // PGlite's transaction fails its COMMIT when an earlier error aborted it (25P02).
      if (typeof err === "object" && err !== null && (err as { code?: unknown }).code === "25P02") throw new AbortedTransactionError({ cause: err });
      throw err;
    } finally {
      this.#tx = undefined;
    }
  }

  async rollback(): Promise<void> {
    const t = this.#tx;
    t?.rollback(new Error("rollback"));
    await t?.closed.catch(() => undefined);
    this.#tx = undefined;
  }
}

class PGliteOneConnectionDriver implements Driver {
  readonly #connection: PGliteConnection;
  constructor(private readonly pglite: PGlite) {
    this.#connection = new PGliteConnection(pglite, preparedQuery(pglite));
  }
  async init(): Promise<void> {
    if (this.pglite.closed) throw new Error("PGlite instance is already closed.");
    await this.pglite.waitReady;
  }
  /** The one connection; Kysely hands it out one holder at a time (PGliteAdapter: no multiple connections). */
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }
  async beginTransaction(c: DatabaseConnection): Promise<void> {
    await (c as PGliteConnection).begin();
  }
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await (c as PGliteConnection).commit();
  }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    await (c as PGliteConnection).rollback();
  }
  savepoint = savepoints.savepoint;
  rollbackToSavepoint = savepoints.rollbackToSavepoint;
  releaseSavepoint = savepoints.releaseSavepoint;
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close();
  }
}

/** PGlite, one connection in this process. */
export function pgliteDialect(pglite: PGlite): Dialect {
  return dialect(new PGliteAdapter(), () => new PGliteOneConnectionDriver(pglite));
}
