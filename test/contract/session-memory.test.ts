import { describe } from "vitest";
import { InMemorySessionStore } from "../../db/graph/memory/session-store";
import { PostgresSessionStore } from "../../db/graph/postgres/session-store";
import { LocalVectorIndex, MemoryVectorRows } from "../../db/vector/local";
import { PostgresVectorRows } from "../../db/vector/local-postgres";
import { describeEachDatabase } from "../support/databases";
import { sessionMemoryContract, type SessionMemoryHarness } from "./session-memory.contract";

describe("SessionMemoryStore contract [memory]", () => {
  const harness: SessionMemoryHarness = { store: new InMemorySessionStore(), vectors: new LocalVectorIndex(new MemoryVectorRows()) };
  sessionMemoryContract(() => harness);
});

await describeEachDatabase("SessionMemoryStore contract", (t) => {
  let harness: SessionMemoryHarness | undefined;
  sessionMemoryContract(() => {
    harness ??= { store: new PostgresSessionStore(t().db), vectors: new LocalVectorIndex(new PostgresVectorRows(t().db)) };
    return harness;
  });
});
