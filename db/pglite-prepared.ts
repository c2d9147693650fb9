/**
 * Named prepared statements on PGlite, for the statements marked PREPARE_MARK (core/prepare.ts) —
 * the same statements the PostgreSQL pool sends as named statements (db/database.ts).
 *
 * PGlite's `query()` parses and plans every statement again (an unnamed statement each time);
 * on the embedded database the plan is CPU in this very thread, and for authorize()'s seven-join
 * read it was about 70% of the statement (5 ms of 17 ms, measured in-process). Here a marked
 * statement is parsed once per database under a name derived from its text, and later calls
 * only bind and execute it — the extended-protocol sequence PGlite's own `query()` runs
 * (parse, describe, bind, describe portal, execute, sync), minus the parse after the first time.
 *
 * State: the names parsed on this PGlite instance and their parameter types. A name is recorded
 * only once its Parse and Describe succeeded; prepared statements are not transactional, so a
 * rolled-back transaction leaves them in place, and PostgreSQL replans one itself after DDL on its
 * tables. Values are serialised and rows parsed with the instance's own serializers and parsers,
 * as `query()` does. Every call holds PGlite's own query locks, so it never interleaves with
 * another statement, and ends with Sync even when a step fails (the error is rethrown).
 */
import { createHash } from "node:crypto";
import { parse, protocol, type PGlite, type Results } from "@electric-sql/pglite";

type BackendMessages = Awaited<ReturnType<PGlite["execProtocolStream"]>>;

/** The statement name of a marked text (the PostgreSQL pool names it the same way). */
export function preparedName(text: string): string {
  return `cs_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
}

/** A `query(text, params)` for `pglite` that runs each text as a named prepared statement. */
export function preparedQuery(pglite: PGlite): (text: string, params?: unknown[]) => Promise<Results> {
  const prepared = new Map<string, number[]>();
  const opts = { syncToFs: false };
  const send = (message: Uint8Array): Promise<BackendMessages> => pglite.execProtocolStream(message, opts);
  return async (text, params = []) => {
    await pglite._checkReady();
    const name = preparedName(text);
    return pglite._runExclusiveTransaction(() =>
      pglite._runExclusiveQuery(async () => {
        const messages: BackendMessages = [];
        try {
          let types = prepared.get(name);
          if (types === undefined) {
            messages.push(...(await send(protocol.serialize.parse({ name, text }))));
            types = parse.parseDescribeStatementResults(await send(protocol.serialize.describe({ type: "S", name })));
            prepared.set(name, types);
          }
          const values = params.map((v, i) => {
            if (v === null || v === undefined) return null;
            const serialize = pglite.serializers[types[i]!];
            return serialize ? serialize(v) : String(v);
          });
          messages.push(...(await send(protocol.serialize.bind({ statement: name, values }))));
          messages.push(...(await send(protocol.serialize.describe({ type: "P" }))));
          messages.push(...(await send(protocol.serialize.execute({}))));
        } finally {
          messages.push(...(await send(protocol.serialize.sync())));
        }
        await pglite.syncToFs();
        return parse.parseResults(messages, pglite.parsers)[0]!;
      }),
    );
  };
}
