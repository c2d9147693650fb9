import { describe } from "vitest";
import { InMemorySessionStore } from "../../db/graph/memory/session-store";
import { LocalVectorIndex, MemoryVectorRows } from "../../db/vector/local";
import { sessionMemoryContract, type SessionMemoryHarness } from "./session-memory.contract";

describe("SessionMemoryStore contract [memory]", () => {
  const harness: SessionMemoryHarness = { store: new InMemorySessionStore(), vectors: new LocalVectorIndex(new MemoryVectorRows()) };
  sessionMemoryContract(() => harness);
});
