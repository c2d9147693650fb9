import { sql } from "kysely";
import { describe } from "vitest";
import { InMemorySessionStore } from "../../db/graph/memory/session-store";
import { PostgresSessionStore } from "../../db/graph/postgres/session-store";
import { LocalVectorIndex, MemoryVectorRows } from "../../db/vector/local";
import { PostgresVectorRows } from "../../db/vector/local-postgres";
import { describeEachDatabase } from "../support/databases";
import { sessionMemoryContract, type SessionMemoryHarness } from "./session-memory.contract";

describe("SessionMemoryStore contract [memory]", () => {
  const store = new InMemorySessionStore();
  const rows = new MemoryVectorRows();
  const harness: SessionMemoryHarness = {
    store,
    vectors: new LocalVectorIndex(rows),
    residue: async (tenant, session) => ({ ...store.countSession(tenant, session), vectors: rows.countSession(tenant, session) }),
  };
  sessionMemoryContract(() => harness);
});

await describeEachDatabase("SessionMemoryStore contract", (t) => {
  let harness: SessionMemoryHarness | undefined;
  sessionMemoryContract(() => {
    harness ??= {
      store: new PostgresSessionStore(t().db),
      vectors: new LocalVectorIndex(new PostgresVectorRows(t().db)),
      // Straight from the tables, not through the adapter.
      residue: async (tenant, session) => {
        const r = await sql<{ entities: string | number; facts: string | number; docs: string | number; vectors: string | number }>`
          select
            (select count(*) from session_memory_entities where tenant_id = ${tenant} and session_id = ${session}) as entities,
            (select count(*) from session_memory_facts where tenant_id = ${tenant} and session_id = ${session}) as facts,
            (select count(*) from session_memory_scopes where tenant_id = ${tenant} and session_id = ${session} and doc <> '{}'::jsonb) as docs,
            (select count(*) from session_memory_vectors where tenant_id = ${tenant} and session_id = ${session}) as vectors`.execute(t().db);
        const row = r.rows[0]!;
        return { entities: Number(row.entities), facts: Number(row.facts), docs: Number(row.docs), vectors: Number(row.vectors) };
      },
    };
    return harness;
  });
});
