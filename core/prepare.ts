/**
 * The named-prepared-statement mark of a hot query: the job claim, the rechecks and the finish,
 * authorize()'s read, the job poll and list, session memory's load and its commit's checks, the
 * session vectors' scope read. A `sql` template starts with `${PREPARE} `; a query builder ends
 * with `.modifyEnd(PREPARE)`. db/database.ts sends every statement carrying PREPARE_MARK as a
 * NAMED prepared statement (named by a hash of its text, prepared once per connection; on PGlite
 * through db/pglite-prepared.ts), so the server stops planning it again on every call — for
 * authorize()'s seven-join read, planning was ~85% of the statement's server time; for the job
 * poll's five-predicate read, 165-187 µs of backend CPU per call became 55-77 µs.
 * Only for statements of a fixed shape (a bounded number of texts: each text is a statement kept
 * on every connection) over tables whose shape migrations do not change while the process runs.
 * Here, beside the queries, so that core and queues mark their statements without loading the
 * database driver.
 */
import { sql } from "kysely";

export const PREPARE_MARK = "/* prepare */";

export const PREPARE = sql.raw(PREPARE_MARK);
