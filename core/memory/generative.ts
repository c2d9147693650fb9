/**
 * What a generative extractor (a small local model asked for JSON, EXTRACTOR=llama) is asked,
 * and how its answer is read. The model's output is untrusted input: every statement is
 * checked here before it reaches the planner, and whatever fails a check is dropped.
 *
 *  - the prompt: a system message with one worked example (a very small model needs it to
 *    answer sensibly), and the turns as `[i] role: text`, each turn and the whole bounded
 *    (`renderTurns`);
 *  - the answer's shape: `GENERATIVE_SCHEMA`, a JSON schema whose `kind` is an enum of
 *    STATEMENT_KINDS (the runtime turns it into a grammar, so the model can only write JSON
 *    of that shape; `statementsFromModel` still re-checks every field);
 *  - the checks (`statementsFromModel`): text 1..240 characters; kind in the vocabulary;
 *    grounded — each sentence of the model's text is replaced by the turn sentence that holds
 *    at least 85% of its content words (the best such), or dropped when none does, so what is
 *    stored is always what a turn said, never the model's paraphrase or invention; at most
 *    MAX_GENERATED statements; repeats dropped; the classifier's kind (extract/classify.ts)
 *    wins over the model's when it found a cue word; topics and replaced values kept only
 *    when their words occur in the turns (topics fall back to `topicsOf`); the turns a
 *    statement came from are those of the matched sentences, never taken from the model.
 *
 * Pure: no model, no I/O. The runtime that runs the model is db/extraction/llama.ts.
 */
import { z } from "zod";
import { classify, KEEP, oldValues } from "./extract/classify";
import { contentTerms, overlap } from "./extract/similar";
import { sentences } from "./extract/segment";
import { codeType, topicsOf } from "./extract/topics";
import { STATEMENT_KINDS, type Statement, type StatementKind, type Topic, type Turn } from "./extractor";

/** Statements kept from one model answer. */
export const MAX_GENERATED = 4;
export const MAX_TEXT = 240;
const MAX_NAME = 60;
/** Share of a statement's content words that must occur in the turns. */
export const GROUNDED = 0.85;

/** The answer's shape; the runtime compiles it into a grammar. */
export const GENERATIVE_SCHEMA = {
  type: "object",
  properties: {
    statements: {
      type: "array",
      maxItems: MAX_GENERATED,
      items: {
        type: "object",
        properties: {
          text: { type: "string", maxLength: MAX_TEXT },
          kind: { enum: [...STATEMENT_KINDS] },
          about: { type: "array", maxItems: 2, items: { type: "string", maxLength: MAX_NAME } },
          corrects: { type: "array", maxItems: 2, items: { type: "string", maxLength: MAX_NAME } },
        },
        required: ["text", "kind", "about", "corrects"],
      },
    },
  },
  required: ["statements"],
} as const;

export const GENERATIVE_SYSTEM_PROMPT = [
  "You read a conversation between a developer and an assistant and list the durable facts about the project it states:",
  "decisions, rules, preferences, code locations, values and versions, owners, status changes, causes and fixes of bugs.",
  "Skip greetings, questions and chatter. Copy each fact's words from the conversation; never invent one, never repeat one.",
  `kind is one of: ${STATEMENT_KINDS.join(", ")}. about lists the 1-2 things the fact is about, as written.`,
  "corrects lists the old value a correction replaces, else is empty.",
  "",
  "Example conversation:",
  "[0] user: hi! can you look at the login flow?",
  "[1] assistant: Sure. Tokens are verified in src/auth/verify.ts.",
  "[2] user: Never log access tokens. We switched to RS256, not HS256.",
  "Example answer:",
  '{"statements":[{"text":"Tokens are verified in src/auth/verify.ts.","kind":"located_in","about":["tokens","src/auth/verify.ts"],"corrects":[]},' +
    '{"text":"Never log access tokens.","kind":"rule","about":["access tokens"],"corrects":[]},' +
    '{"text":"We switched to RS256, not HS256.","kind":"corrected","about":["RS256"],"corrects":["HS256"]}]}',
].join("\n");

export interface RenderedTurns {
  /** The prompt's conversation text. */
  text: string;
  /** How many of the turns (from the first) it holds; the rest did not fit. */
  count: number;
}

/**
 * The turns as `[i] role: text`, from `from` on: each turn cut to `perTurn` characters, and
 * turns added while the whole stays within `budget` characters and `maxTurns` turns (at least one turn).
 */
export function renderTurns(turns: Turn[], opts: { from?: number; perTurn: number; budget: number; maxTurns?: number }): RenderedTurns {
  const lines: string[] = [];
  let used = 0;
  let i = opts.from ?? 0;
  for (; i < turns.length; i++) {
    const t = turns[i]!;
    const body = fold(t.content);
    const line = `[${i}] ${t.role}: ${body.length > opts.perTurn ? `${body.slice(0, opts.perTurn)}…` : body}`;
    if (lines.length > 0 && (used + line.length + 1 > opts.budget || lines.length >= (opts.maxTurns ?? Infinity))) break;
    lines.push(line);
    used += line.length + 1;
  }
  return { text: lines.join("\n"), count: i - (opts.from ?? 0) };
}

function fold(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").replace(/\s+/g, " ").trim();
}

const Item = z.object({
  text: z.string(),
  kind: z.string(),
  about: z.array(z.unknown()).optional(),
  corrects: z.array(z.unknown()).optional(),
});

/**
 * The valid statements of a model's answer (parsed JSON, or the raw string) about `turns`
 * (indexes relative to them). Anything malformed yields fewer statements, never an exception.
 */
export function statementsFromModel(answer: unknown, turns: Turn[]): Statement[] {
  let raw = answer;
  if (typeof raw === "string") {
    try {
      raw = JSON.parse(raw);
    } catch {
      return [];
    }
  }
  const list = raw && typeof raw === "object" ? (raw as { statements?: unknown }).statements : undefined;
  if (!Array.isArray(list)) return [];
  const turnTerms = turns.map((t) => contentTerms(t.content));
  const all = new Set<string>();
  for (const s of turnTerms) for (const w of s) all.add(w);
  const said = sentences(turns).map((s) => ({ ...s, terms: contentTerms(s.text) }));
  const grounded = (text: string, share: number): boolean => {
    const terms = contentTerms(text);
    return terms.size > 0 && overlap(terms, all) / terms.size >= share;
  };
  const out: Statement[] = [];
  const seen = new Set<string>();
  const used = new Set<(typeof said)[number]>();
  for (const item of list.slice(0, 4 * MAX_GENERATED)) {
    if (out.length >= MAX_GENERATED) break;
    const p = Item.safeParse(item);
    if (!p.success) continue;
    const given = fold(p.data.text);
    if (given.length < 1 || given.length > MAX_TEXT) continue;
    if (!(STATEMENT_KINDS as readonly string[]).includes(p.data.kind)) continue;
    // The stored text is what the turns said: each sentence of the model's text is replaced
    // by the turn sentence holding most of its words, or dropped when none holds GROUNDED of them.
    const matched: typeof said = [];
    for (const part of given.split(/(?<=[.!?;])\s+/)) {
      const terms = contentTerms(part);
      if (terms.size === 0) continue;
      let best: (typeof said)[number] | undefined;
      let score = 0;
      for (const s of said) {
        const o = overlap(terms, s.terms) / terms.size;
        if (o > score) {
          score = o;
          best = s;
        }
      }
      // A turn sentence feeds one statement: a later statement repeating it keeps only what is new.
      if (best && score >= GROUNDED && !matched.includes(best) && !used.has(best)) matched.push(best);
    }
    if (matched.length === 0) continue;
    for (const m of matched) used.add(m);
    matched.sort((a, b) => a.turn - b.turn || a.pos - b.pos);
    let text = "";
    for (const m of matched) if (text.length === 0 || text.length + 1 + m.text.length <= MAX_TEXT) text = text ? `${text} ${m.text}` : m.text;
    text = fold(text).slice(0, MAX_TEXT);
    const terms = contentTerms(text);
    if (terms.size === 0) continue;
    const key = [...terms].sort().join(" ");
    if (seen.has(key)) continue;
    seen.add(key);
    const from = [...new Set(matched.map((m) => m.turn))].slice(0, 3);
    const names = (p.data.about ?? []).filter((a): a is string => typeof a === "string").map(fold)
      .filter((a) => a.length >= 1 && a.length <= MAX_NAME && grounded(a, 1));
    const about: Topic[] = [];
    for (const name of names) if (about.length < 3 && !about.some((t) => t.name.toLowerCase() === name.toLowerCase())) about.push({ name, type: codeType(name) ?? "topic" });
    const old = (p.data.corrects ?? []).filter((a): a is string => typeof a === "string").map(fold)
      .filter((a) => a.length >= 1 && a.length <= MAX_NAME && grounded(a, 1))
      .flatMap((a) => a.toLowerCase().split(/\s+/).map((w) => w.replace(/^[^\w@]+|[^\w]+$/g, "")).filter((w) => w.length >= 2));
    const c = classify(text, matched[0]!.role);
    // The classifier's kind wins when it found a cue for one ("never" → rule); else the model's.
    const kind = c.kind !== "states" && c.salience >= KEEP ? c.kind : (p.data.kind as StatementKind);
    const correction = kind === "corrected" || c.correction || old.length > 0;
    out.push({
      text,
      kind,
      about: about.length > 0 ? about : topicsOf(text),
      salience: Math.max(KEEP, c.salience),
      turns: from,
      ...(correction ? { corrects: { old: [...new Set([...old, ...oldValues(text)])] } } : {}),
    });
  }
  return out;
}
