/**
 * Turns → candidate sentences. Fenced code blocks and long tool output are not
 * statements (they are kept out, except a tool turn's error lines); prose is
 * split into lines, list items and sentences without breaking file names,
 * versions or dotted identifiers (`login.ts`, `v1.2.3`, `UserRepository.findById`).
 */
import type { Turn } from "../extractor";

export interface Sentence {
  text: string;
  /** 0-based index of the turn in the offload call. */
  turn: number;
  role: Turn["role"];
  /** Position of the sentence in its turn (0-based). */
  pos: number;
  /** The turn's sentence count, so a classifier can tell a one-line answer from a long explanation. */
  of: number;
}

const FENCE = /```[\s\S]*?(?:```|$)/g;
const BULLET = /^\s*(?:[-*•+]|\d{1,2}[.)])\s+/;
/**
 * A sentence ends at . ! ? followed by whitespace and a capital, a quote, a backtick or a bracket;
 * a question or an exclamation ends one whatever follows (chat is often lower-case: "wait is it
 * 30 days? let me check"); independent clauses joined by "; " are statements of their own.
 */
const BOUNDARY = /(?<=[.!?])\s+(?=[A-Z`"'([@])|(?<=[.!?])\s+(?=\d+[.)]\s)|(?<=[?!])\s+(?=[a-z])|;\s+(?=(?:[\w`'-]+\s+){3})/;
/** Tool output lines worth reading: failures and their messages, and prose (a doc or a note printed by a command). */
const TOOL_LINE = /\b(?:error|failed|failure|exception|panic|fatal|timeout|timed out|refused|denied)\b|✗|✘/i;
/** "Label: words…" or a sentence of five words or more, without code punctuation. */
const TOOL_PROSE = /^(?:[A-Z][\w ./-]{1,30}:\s+\S.{8,}|[A-Z][^{}<>=;|$#]*\s\S+\s\S+\s\S+\s\S+.*[.!])$/;
const MAX_TOOL_LINES = 8;
const MIN_CHARS = 8;
const MAX_SENTENCE_CHARS = 600;

function prose(turn: Turn): string[] {
  const text = turn.content.replace(FENCE, "\n");
  if (turn.role === "tool") {
    return text
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => TOOL_LINE.test(l) || (TOOL_PROSE.test(l) && !/[{};]\s*$|^\s*(?:at |\/\/|#|\$ )/.test(l)))
      .slice(0, MAX_TOOL_LINES);
  }
  const out: string[] = [];
  for (const raw of text.split(/\n+/)) {
    const line = raw.replace(BULLET, "").replace(/^#+\s+/, "").replace(/^>\s?/, "").trim();
    if (!line) continue;
    for (const s of line.split(BOUNDARY)) out.push(s.trim());
  }
  return out;
}

/** Strips markdown emphasis and trailing connectors; keeps backticks (they mark code). */
function tidy(s: string): string {
  return s
    .replace(/\*\*|__/g, "")
    .replace(/\s+/g, " ")
    .replace(/^[,;:–—-]\s*/, "")
    .trim();
}

export function sentences(turns: Turn[]): Sentence[] {
  const out: Sentence[] = [];
  turns.forEach((turn, i) => {
    const parts = prose(turn)
      .map(tidy)
      .filter((s) => s.length >= MIN_CHARS);
    parts.forEach((text, pos) => out.push({ text: text.length > MAX_SENTENCE_CHARS ? text.slice(0, MAX_SENTENCE_CHARS) : text, turn: i, role: turn.role, pos, of: parts.length }));
  });
  return out;
}
