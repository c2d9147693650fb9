/** The Neo4j the tests reach: NEO4J_URL, NEO4J_USER, NEO4J_PASSWORD (no password: no auth). */
import type { Driver } from "neo4j-driver";
import { openNeo4j } from "../../db/graph/neo4j/driver";

export function neo4jFromEnv(): Driver {
  const url = process.env.NEO4J_URL;
  if (!url) throw new Error("NEO4J_URL is not set");
  return openNeo4j({ url, user: process.env.NEO4J_USER, password: process.env.NEO4J_PASSWORD });
}
