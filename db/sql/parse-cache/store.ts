/** The parse cache's store (core/ingest/parse-cache-store.ts) over the relational database: the verbs beside it. */
import type { ParseCacheStore } from "../../../core/ingest/parse-cache-store";
import type { Db, Tx } from "../../schema";
import { readParseCache } from "./readParseCache";
import { stageParseCache } from "./stageParseCache";
import { writeParseCache } from "./writeParseCache";

export function parseCacheStore(db: Db): ParseCacheStore<Tx> {
  return {
    read: (repoId) => readParseCache(db, repoId),
    stage: (tx, repoId, gen, rows, now) => stageParseCache(tx, repoId, gen, rows, now),
    write: (tx, repoId, rows, deleted, now) => writeParseCache(tx, repoId, rows, deleted, now),
  };
}
