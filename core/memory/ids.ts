/**
 * Compound IDs. Session entity and fact IDs hash the full scope with the
 * content, so the same name in two sessions (or namespaces, or tenants) gets a
 * different ID, and an ID from one scope names nothing in another. Names are
 * matched case-insensitively after trimming (duplicate names collapse to one
 * entity per type).
 */
import { createHash } from "node:crypto";
import type { ScopeKey } from "./types";

const SEP = "\u0000";

function h(parts: string[]): string {
  return createHash("sha256").update(parts.join(SEP)).digest("hex").slice(0, 32);
}

export function normalizeName(name: string): string {
  return name.normalize("NFC").trim().replace(/\s+/g, " ");
}

export function nameKey(name: string): string {
  return normalizeName(name).toLowerCase();
}

export function entityId(key: ScopeKey, type: string, name: string): string {
  return `se_${h(["entity", key.tenant_id, key.session_id, key.ns, type, nameKey(name)])}`;
}

export function factId(key: ScopeKey, subjectId: string, predicate: string, objectId: string): string {
  return `sf_${h(["fact", key.tenant_id, key.session_id, key.ns, subjectId, predicate, objectId])}`;
}

/** Durable repository memory: node and fact IDs are per repository. */
export function repoNodeId(repoId: string, type: string, name: string): string {
  return `rn_${h(["node", repoId, type, nameKey(name)])}`;
}

export function repoFactId(repoId: string, subjectId: string, predicate: string, objectId: string): string {
  return `rf_${h(["fact", repoId, subjectId, predicate, objectId])}`;
}

export const SESSION_ENTITY_ID = /^se_[0-9a-f]{32}$/;
export const SESSION_FACT_ID = /^sf_[0-9a-f]{32}$/;
export const REPO_FACT_ID = /^rf_[0-9a-f]{32}$/;
export const REPO_NODE_ID = /^rn_[0-9a-f]{32}$/;
