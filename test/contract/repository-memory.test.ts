import { describe } from "vitest";
import { InMemoryRepositoryStore } from "../../db/graph/memory/repository-store";
import { PostgresRepositoryStore } from "../../db/graph/postgres/repository-store";
import { describeEachDatabase } from "../support/databases";
import { repositoryMemoryContract } from "./repository-memory.contract";

describe("RepositoryMemoryStore contract [memory]", () => {
  const store = new InMemoryRepositoryStore();
  repositoryMemoryContract(() => store);
});

await describeEachDatabase("RepositoryMemoryStore contract", (t) => {
  let store: PostgresRepositoryStore | undefined;
  repositoryMemoryContract(() => (store ??= new PostgresRepositoryStore(t().db)));
});
