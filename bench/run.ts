/**
 * `npm run bench`: every benchmark, one after another, in one process run, so
 * the side-by-side numbers within each table come from the same conditions.
 * Set TEST_DATABASE_URL / REDIS_URL (or source test/services/.env.services)
 * for the PostgreSQL and Redis columns. BENCH_ONLY=identity,jobs selects some.
 */
import { benchIdentity, printIdentity } from "./identity";

const only = (process.env.BENCH_ONLY ?? "").split(",").filter(Boolean);
const want = (name: string) => only.length === 0 || only.includes(name);

if (want("identity")) printIdentity(await benchIdentity());
