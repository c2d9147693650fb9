/**
 * Named prepared statements on PGlite, for the queries their call site names (core/prepare.ts) —
 * the same statements the PostgreSQL driver sends as named statements (db/drivers.ts).
 *
 * PGlite's `query()` parses and plans every statement again (an unnamed statement each time);
 * on the embedded database the plan is CPU in this very thread, and for authorize()'s seven-join
 * read it was about 70% of the statement (5 ms of 17 ms, measured in-process). Here a named
 * statement is parsed once per database under its name (one name, one text: core/prepare.ts puts
 * the text's hash in it), and later calls only bind and execute it — the extended-protocol
 * sequence PGlite's own `query()` runs (parse, describe, bind, describe portal, execute, sync),
 * minus the parse and both describes after the first time (the columns described once are kept with the name: the result of
 * authorize()'s 30-column read was described and decoded again on every call), and sent to the
 * backend in one call instead of one call per message.
 *
 * State: the names parsed on this PGlite instance, their parameter types and columns. A name is
 * recorded only once its Parse and Describe succeeded; prepared statements are not transactional, so a
 * rolled-back transaction leaves them in place, and PostgreSQL replans one itself after DDL on its
 * tables. Values are serialised and rows parsed with the instance's own serializers and parsers,
 * as `query()` does. Every call holds PGlite's own query locks, so it never interleaves with
 * another statement, and ends with Sync even when a step fails (the error is rethrown).
 * The statement set is bounded by the code: only the texts of named call sites come here.
 */
import { parse, protocol, type PGlite, type Results } from "@electric-sql/pglite";

type BackendMessages = Awaited<ReturnType<PGlite["execProtocolStream"]>>;

/** A parsed statement: its parameter types and its columns (none: a statement without rows). */
interface Statement {
  types: number[];
  row: BackendMessages[number] | undefined;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A `query` for `pglite` that runs `text` as the named prepared statement `name`, parsed on its first call. */
export type PreparedQuery = (name: string, text: string, params: readonly unknown[], inTransaction: boolean) => Promise<Results>;

export function preparedQuery(pglite: PGlite): PreparedQuery {
  /** By name: its parameter types and columns, once parsed on this instance. */
  const prepared = new Map<string, Statement>();
  const opts = { syncToFs: false };
  const send = (message: Uint8Array): Promise<BackendMessages> => pglite.execProtocolStream(message, opts);
  const { serialize } = protocol;
  const prepare = async (name: string, text: string): Promise<Statement> => {
    try {
      await send(serialize.parse({ name, text }));
      const described = await send(serialize.describe({ type: "S", name }));
      const types = parse.parseDescribeStatementResults(described);
      const statement: Statement = { types, row: described.find((m) => m.name === "rowDescription") };
      prepared.set(name, statement);
      return statement;
    } finally {
      await send(serialize.sync());
    }
  };
  const run = (name: string, text: string, params: readonly unknown[]) =>
    pglite._runExclusiveQuery(async () => {
      const { types, row } = prepared.get(name) ?? (await prepare(name, text));
      const values = params.map((v, i) => {
        if (v === null || v === undefined) return null;
        const write = pglite.serializers[types[i]!];
        return write ? write(v) : String(v);
      });
      // Bind, execute and sync in one call: on an error the server skips to the Sync, so the
      // session is ready again (an open transaction is then aborted, as with query()). The
      // columns are the statement's, described once when it was parsed (text format, as bound).
      const messages = await send(concat([serialize.bind({ statement: name, values }), serialize.execute({}), serialize.sync()]));
      await pglite.syncToFs();
      return parse.parseResults(row ? [row, ...messages] : messages, pglite.parsers)[0]!;
    });
  return async (name, text, params, inTransaction) => {
    await pglite._checkReady();
    // Inside a transaction its callback already holds the transaction lock (PGlite's own tx.query
    // takes only the query lock); outside one, the statement waits for any open transaction.
    return inTransaction ? run(name, text, params) : pglite._runExclusiveTransaction(() => run(name, text, params));
  };
}
