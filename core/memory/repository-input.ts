/**
 * What a durable write's input becomes in one repository, checked before
 * anything is read: an upsert's triples (names and source redacted, node and
 * fact IDs derived for the repository), and an import file (the same, plus
 * its history, times clamped to `now`).
 */
import { limitError } from "../errors";
import { MAX_REPO_TRANSFER_FACTS, MAX_SOURCE_CHARS, MAX_TRIPLES_PER_UPSERT } from "../limits";
import { redact } from "../redact";
import { repoFactId, repoNodeId } from "./ids";
import { bad, cleanName } from "./input";
import type { DurableTriple, RepoFactVersion } from "./repository-store";
import { parseRepoImport } from "./repository-transfer";
import { PREDICATE_PATTERN, TYPE_PATTERN } from "./snapshot";
import type { TripleInput } from "./types";

/** Durable upsert options beyond the triples: supersession, declarations, the caller's clock. */
export interface RepoUpsertInput {
  triples: TripleInput[];
  source?: string | undefined;
  supersedes?: string[] | undefined;
  single_valued?: string[] | undefined;
  /** Epoch ms, caller's clock. */
  observed_at?: number | undefined;
}

const cleanSource = async (v: string | undefined) => (v === undefined ? undefined : (await redact(v.slice(0, MAX_SOURCE_CHARS))).text.slice(0, MAX_SOURCE_CHARS));

export async function durableTriples(repoId: string, triples: TripleInput[], source: string | undefined): Promise<DurableTriple[]> {
  if (!Array.isArray(triples) || triples.length < 1 || triples.length > MAX_TRIPLES_PER_UPSERT) throw bad("triples");
  const src = source === undefined ? undefined : (await redact(source.slice(0, MAX_SOURCE_CHARS))).text;
  const out: DurableTriple[] = [];
  for (const [i, t] of triples.entries()) {
    if (typeof t.predicate !== "string" || !PREDICATE_PATTERN.test(t.predicate)) throw bad(`triples.${i}.predicate`);
    const node = async (n: unknown, ty: unknown, f: string) => {
      const type = ty ?? "";
      if (typeof type !== "string" || !TYPE_PATTERN.test(type)) throw bad(`triples.${i}.${f}_type`);
      const clean = await cleanName(n, `triples.${i}.${f}`);
      return { id: repoNodeId(repoId, type, clean), name: clean, type };
    };
    const s = await node(t.subject, t.subject_type, "subject");
    const o = await node(t.object, t.object_type, "object");
    out.push({ fact_id: repoFactId(repoId, s.id, t.predicate, o.id), subject: s, predicate: t.predicate, object: o, source: src });
  }
  return out;
}

/** What an import file becomes: its nodes (file ID → node), its facts by derived ID, its history (oldest end first), its declared single-valued predicates. */
export async function importedRepoContent(repoId: string, text: string, now: number) {
  const p = parseRepoImport(text);
  if (p.facts.length > MAX_REPO_TRANSFER_FACTS) throw limitError("repo_transfer_facts", MAX_REPO_TRANSFER_FACTS);
  const at = (v: string | null | undefined): number | undefined => (v === null || v === undefined ? undefined : Math.min(Date.parse(v), now));
  const remap = new Map<string, { id: string; name: string; type: string }>();
  for (const [i, n] of p.nodes.entries()) {
    const clean = await cleanName(n.name, `lines.node.${i}.name`);
    remap.set(n.id, { id: repoNodeId(repoId, n.type, clean), name: clean, type: n.type });
  }
  const factIdOf = new Map<string, string>();
  const triples = new Map<string, DurableTriple>();
  for (const f of p.facts) {
    const subject = remap.get(f.subject_id)!;
    const object = remap.get(f.object_id)!;
    const fid = repoFactId(repoId, subject.id, f.predicate, object.id);
    factIdOf.set(f.fact_id, fid);
    if (triples.has(fid)) continue;
    const vf = at(f.valid_from);
    const ob = at(f.observed_at);
    triples.set(fid, { fact_id: fid, subject, predicate: f.predicate, object, source: await cleanSource(f.source), ...(vf !== undefined ? { valid_from: vf } : {}), ...(ob !== undefined ? { observed_at: ob } : {}) });
  }
  for (const v of p.history) factIdOf.set(v.fact_id, repoFactId(repoId, remap.get(v.subject_id)!.id, v.predicate, remap.get(v.object_id)!.id));
  const history: RepoFactVersion[] = [];
  for (const v of p.history) {
    const src = await cleanSource(v.source);
    const to = at(v.valid_to)!;
    const ob = at(v.observed_at);
    history.push({
      fact_id: factIdOf.get(v.fact_id)!,
      subject: remap.get(v.subject_id)!,
      predicate: v.predicate,
      object: remap.get(v.object_id)!,
      ...(src !== undefined ? { source: src } : {}),
      valid_from: Math.min(at(v.valid_from) ?? 0, to),
      valid_to: to,
      ...(ob !== undefined ? { observed_at: ob } : {}),
      session_id: v.session_id,
      ended_by: v.ended_by,
      ended: v.ended,
      replaced_by: v.replaced_by.flatMap((r) => (factIdOf.has(r) ? [factIdOf.get(r)!] : [])),
    });
  }
  history.sort((a, b) => a.valid_to - b.valid_to);
  return { remap, triples, history, declared: p.header.single_valued };
}
