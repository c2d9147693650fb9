/**
 * The named-prepared-statement mark of a hot query (the job claim, the rechecks, the finish).
 * Query writers put `${PREPARE} ` at the start of such a statement; the PostgreSQL dialect of
 * db/database.ts sends every statement carrying PREPARE_MARK as a NAMED prepared statement
 * (named by a hash of its text, prepared once per connection), so PostgreSQL stops planning it
 * again on every call — for authorize()'s seven-join read, planning was ~85% of the statement's
 * server time. Only for statements over tables whose shape migrations do not change while the
 * process runs; on PGlite it is a comment. Here, beside the queries, so that core and queues
 * mark their statements without loading the database driver.
 */
import { sql } from "kysely";

export const PREPARE_MARK = "/* prepare */";

export const PREPARE = sql.raw(PREPARE_MARK);
