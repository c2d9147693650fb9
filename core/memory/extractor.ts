/**
 * Extraction (OFF-2): turns → triples, using only a local memory model.
 *  - LocalExtractor (default): deterministic, no network, no model. Keeps the
 *    sentences that say something durable (core/memory/extract/), and the code
 *    relations they state: `<Identifier> <relation phrase> <Identifier>` where
 *    identifiers look like code (CamelCase, snake_case, dotted or path-like
 *    names, or `backticked`) and the phrase is one of a fixed set of relations.
 *  - OpenAIExtractor: a locally hosted model behind an OpenAI-compatible
 *    chat endpoint (Ollama, vLLM), asked for JSON triples; its output is
 *    validated like any other input.
 * Both take the authorised identity; neither logs turn text.
 */
import { AppError } from "../errors";
import type { ProviderGate } from "../provider-limits";
import type { Identity } from "../execution/identity";
import { assertAuthorisedIdentity } from "./embedder";
import { PREDICATE_PATTERN } from "./snapshot";
import type { TripleInput } from "./types";
import { classify, KEEP, oldValues } from "./extract/classify";
import { sentences } from "./extract/segment";
import { topicsOf } from "./extract/topics";

export interface Turn {
  role: "user" | "assistant" | "tool";
  content: string;
  /** The runtime's own ID for the turn (bounded, validated at the boundary); provenance only. */
  id?: string | undefined;
}

/**
 * The documented predicate vocabulary of extracted statements (docs/memory.md):
 * what kind of durable thing a thread said. A statement is stored as
 * `<what it is about> <kind> <the statement's text>`.
 */
export const STATEMENT_KINDS = [
  "decided", // a decision: "we'll go with X", "let's use X"
  "corrected", // a correction whose earlier statement is not in memory
  "rule", // a constraint or rule: "never …", "always …", "must not …"
  "prefers", // a preference: "I prefer …", "use tabs"
  "located_in", // a code location: file, symbol, env var, command
  "has_value", // a version, a figure, a setting
  "owned_by", // ownership: "Alice owns …", "the payments team maintains …"
  "status", // a status change: "is deprecated", "is done", "shipped"
  "caused_by", // the cause of a bug or incident
  "fixed_by", // a fix: "fixed by …", "the fix is …"
  "states", // any other durable statement about the project
] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

/** What a statement is about: a code identifier, a path, an env var, a command or a named thing. */
export interface Topic {
  name: string;
  /** `file`, `symbol`, `env`, `command`, `version`, `topic` (a named thing in plain language). */
  type: string;
}

/** One durable statement an extractor found, before the planner decides what to store. */
export interface Statement {
  /** The statement as it should be stored (from redacted turn text; the planner bounds its length). */
  text: string;
  kind: StatementKind;
  /** 1..3 topics, the main one first. */
  about: Topic[];
  /** 0..1: how durable and useful it is; the namespace budget drops the lowest first. */
  salience: number;
  /** Indexes (0-based) of the turns of the offload call it came from. */
  turns: number[];
  /**
   * Set when the statement corrects an earlier one ("now X, not Y", "we switched to",
   * "no longer", "instead of"): the words of the replaced value when the turn names it.
   */
  corrects?: { old: string[] } | undefined;
  /** Code relations the statement states (`OrderService calls UserRepository.findById`), stored beside it. */
  links?: TripleInput[] | undefined;
}

export interface Extractor {
  readonly kind: string;
  /** Statements found in redacted turns, in the order they were said. Never logs turn text. */
  extract(identity: Identity, turns: Turn[], signal?: AbortSignal): Promise<Statement[]>;
}

const RELATIONS: Array<[RegExp, string]> = [
  [/depends on/, "depends_on"],
  [/is defined in|lives in|is in/, "defined_in"],
  [/calls|invokes/, "calls"],
  [/imports/, "imports"],
  [/uses/, "uses"],
  [/extends|inherits from/, "extends"],
  [/implements/, "implements"],
  [/returns/, "returns"],
  [/reads from|reads/, "reads"],
  [/writes to|writes/, "writes"],
  [/stores .{0,20}? in|persists to|stores/, "stores_in"],
  [/owns|contains|has/, "contains"],
  [/replaces|supersedes/, "replaces"],
  [/wraps/, "wraps"],
  [/emits|publishes/, "emits"],
  [/handles|processes/, "handles"],
];

const IDENT = String.raw`(\x60[^\x60]{1,120}\x60|[A-Za-z_][\w$]*(?:[./:][\w$]+)*(?:\(\))?)`;
const PHRASE = RELATIONS.map(([re]) => re.source).join("|");
const STATEMENT = new RegExp(`${IDENT}\\s+(?:also\\s+|now\\s+|directly\\s+)?(${PHRASE})\\s+(?:the\\s+|a\\s+|an\\s+)?${IDENT}`, "g");

function looksLikeCode(name: string): boolean {
  if (name.startsWith("`")) return true;
  return /[A-Z].*[a-z].*[A-Z]|^[A-Z][a-z]+[A-Z]|_|\.|\/|\(\)$|^[A-Z][A-Za-z0-9]*[A-Z0-9]/.test(name) || /^[A-Z][a-z0-9]+[A-Z]/.test(name);
}

function clean(name: string): string {
  return name.replace(/^`|`$/g, "").replace(/\(\)$/, "").trim();
}

function typeOf(name: string): string {
  if (/\.(ts|js|py|go|rs|java|tsx|jsx|md|json|sql)$/.test(name) || name.includes("/")) return "file";
  if (/^[A-Z]/.test(name) && !name.includes(".")) return "class";
  if (name.includes(".") || /^[a-z]/.test(name)) return "function";
  return "";
}

/** Code relations per turn as statements that carry only their links (one per relation, deduplicated). */
function linkStatements(perTurn: TripleInput[][]): Statement[] {
  const out = new Map<string, Statement>();
  perTurn.forEach((links, i) => {
    for (const t of links) {
      const k = `${t.subject}\u0000${t.predicate}\u0000${t.object}`.toLowerCase();
      if (!out.has(k)) out.set(k, { text: `${t.subject} ${t.predicate.replace(/_/g, " ")} ${t.object}`, kind: "states", about: [{ name: t.subject, type: t.subject_type ?? "" }], salience: 0.5, turns: [i], links: [t] });
    }
  });
  return [...out.values()];
}

export class LocalExtractor implements Extractor {
  readonly kind = "local";

  extractText(text: string): TripleInput[] {
    const out = new Map<string, TripleInput>();
    for (const sentence of text.split(/(?<=[.!?;\n])\s+/)) {
      STATEMENT.lastIndex = 0;
      for (const m of sentence.matchAll(STATEMENT)) {
        const [, rawS, phrase, rawO] = m;
        if (!rawS || !phrase || !rawO) continue;
        if (!looksLikeCode(rawS) || !looksLikeCode(rawO)) continue;
        const predicate = RELATIONS.find(([re]) => new RegExp(`^(?:${re.source})$`).test(phrase))?.[1];
        if (!predicate || !PREDICATE_PATTERN.test(predicate)) continue;
        const subject = clean(rawS);
        const object = clean(rawO);
        if (!subject || !object || subject === object || subject.includes("[REDACTED") || object.includes("[REDACTED")) continue;
        const t: TripleInput = { subject, predicate, object, subject_type: typeOf(subject), object_type: typeOf(object) };
        out.set(`${subject}\u0000${predicate}\u0000${object}`.toLowerCase(), t);
      }
    }
    return [...out.values()];
  }

  /**
   * Every sentence of the turns (segment.ts) is classified (classify.ts); the
   * ones that say something durable become statements about their topics
   * (topics.ts), with the code relations they state as links. A user's short
   * "yes, do that" after an assistant's proposal keeps the proposal as a decision.
   */
  async extract(identity: Identity, turns: Turn[], signal?: AbortSignal): Promise<Statement[]> {
    assertAuthorisedIdentity(identity);
    if (signal?.aborted) throw new AppError("canceled");
    const out: Statement[] = [];
    for (const s of sentences(turns)) {
      const c = classify(s.text, s.role);
      const links = this.extractText(s.text);
      const salience = links.length > 0 ? Math.max(c.salience, KEEP) : c.salience;
      if (salience < KEEP) continue;
      out.push({
        text: s.text,
        kind: c.kind,
        about: topicsOf(s.text),
        salience,
        turns: [s.turn],
        ...(c.correction ? { corrects: { old: oldValues(s.text) } } : {}),
        ...(links.length ? { links } : {}),
      });
    }
    return [...out, ...acceptedProposals(turns)];
  }
}

const PROPOSAL = /\b(?:i (?:suggest|recommend|propose)|i'?d (?:suggest|recommend|go with|use)|we could|should we|shall (?:i|we)|want me to|how about|my recommendation|option [a-z0-9]\b)/i;
const AFFIRM = /^(?:yes|yep|yeah|yup|sure|ok(?:ay)?|sounds good|agreed|let'?s do (?:it|that|this)|go (?:with|for) (?:it|that|option)|do (?:it|that)|ship it|perfect|lgtm|makes sense)\b/i;

/** A proposal the user accepted in the next turn ("Should we cache it in Redis?" → "yes, do it") as a decision. */
function acceptedProposals(turns: Turn[]): Statement[] {
  const out: Statement[] = [];
  for (let i = 1; i < turns.length; i++) {
    const t = turns[i]!;
    const prev = turns[i - 1]!;
    if (t.role !== "user" || prev.role !== "assistant" || t.content.length > 160 || !AFFIRM.test(t.content.trim())) continue;
    const offer = sentences([prev]).filter((s) => PROPOSAL.test(s.text)).pop();
    if (!offer) continue;
    const text = `Agreed: ${offer.text.replace(/\?\s*$/, ".")}`;
    out.push({ text, kind: "decided", about: topicsOf(offer.text), salience: 0.7, turns: [i - 1, i] });
  }
  return out;
}

export class OpenAIExtractor implements Extractor {
  readonly kind = "openai";
  constructor(private readonly opts: { baseUrl: string; model: string; apiKey?: string | undefined; timeoutMs?: number; gate?: ProviderGate | undefined }) {}

  async extract(identity: Identity, turns: Turn[], signal?: AbortSignal): Promise<Statement[]> {
    assertAuthorisedIdentity(identity);
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 30_000);
    const call = () => fetch(`${this.opts.baseUrl.replace(/\/$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
      body: JSON.stringify({
        model: this.opts.model,
        temperature: 0,
        response_format: { type: "json_object" },
        messages: [
          { role: "system", content: 'Extract facts about code from the conversation. Answer {"triples":[{"subject","predicate","object","subject_type","object_type"}]} with snake_case predicates.' },
          { role: "user", content: turns.map((t) => `${t.role}: ${t.content}`).join("\n") },
        ],
      }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    }).catch((err: unknown) => {
      throw new AppError("unavailable", { message: "The extraction model is not reachable.", cause: err });
    });
    const res = this.opts.gate ? await this.opts.gate.run(signal, call) : await call();
    if (!res.ok) throw new AppError("unavailable", { message: `The extraction model answered ${res.status}.` });
    const body = (await res.json()) as { choices?: Array<{ message?: { content?: string } }> };
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.choices?.[0]?.message?.content ?? "{}");
    } catch {
      return [];
    }
    const triples = (parsed as { triples?: unknown }).triples;
    if (!Array.isArray(triples)) return [];
    const links: TripleInput[] = triples
      .filter((t): t is Record<string, unknown> => !!t && typeof t === "object")
      .filter((t) => typeof t.subject === "string" && typeof t.object === "string" && typeof t.predicate === "string" && PREDICATE_PATTERN.test(t.predicate))
      .slice(0, 64)
      .map((t) => ({
        subject: t.subject as string,
        predicate: t.predicate as string,
        object: t.object as string,
        subject_type: typeof t.subject_type === "string" && /^[A-Za-z0-9_.:-]{0,64}$/.test(t.subject_type) ? t.subject_type : "",
        object_type: typeof t.object_type === "string" && /^[A-Za-z0-9_.:-]{0,64}$/.test(t.object_type) ? t.object_type : "",
      }));
    return linkStatements([links]);
  }
}
