/** The relational stores (core/stores.ts) over one database: each area's verbs live under db/sql/<area>/. */
import type { Stores } from "../core/stores";
import type { Db, Tx } from "./schema";
import { postgresMcpSessionStore } from "./sql/mcp-sessions/store";
import { parseCacheStore } from "./sql/parse-cache/store";
import { erasureReceipts } from "./sql/receipts/store";
import { sweepStore } from "./sql/sessions/store";
import { uploadStore } from "./sql/uploads/store";

export function relationalStores(db: Db): Stores<Tx> {
  return { receipts: erasureReceipts(db), sweep: sweepStore(db), uploads: uploadStore(db), parseCache: parseCacheStore(db), mcpSessions: postgresMcpSessionStore(db) };
}
