/**
 * MEMORY_STORE=neo4j: session memory, repository memory and the scope vectors in one Neo4j,
 * over one driver. Imported by main/memory.ts on first use only (main/deferred.ts).
 */
import { once } from "../core/once";
import { openNeo4j, type Neo4jOptions } from "../db/graph/neo4j/driver";
import { REPOSITORY_SCHEMA, Neo4jRepositoryStore } from "../db/graph/neo4j/repository-store";
import { ensureSchema, SESSION_SCHEMA } from "../db/graph/neo4j/schema";
import { Neo4jSessionStore } from "../db/graph/neo4j/session-store";
import { Neo4jVectorIndex } from "../db/graph/neo4j/vector-index";

export function openNeo4jMemory(opts: Neo4jOptions) {
  const driver = openNeo4j(opts);
  // Constraints and indexes are created once, before the first operation of any Neo4j store (idempotent).
  const schema = once(() => ensureSchema(driver, [...SESSION_SCHEMA, ...REPOSITORY_SCHEMA]));
  return {
    store: new Neo4jSessionStore(driver, { schema }),
    repo: new Neo4jRepositoryStore(driver, { schema }),
    vectors: new Neo4jVectorIndex(driver, { schema }),
    close: () => driver.close(),
  };
}
