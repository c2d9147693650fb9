/**
 * What kind of durable thing a sentence says, and how much it is worth
 * keeping — by cue phrases, not by a model: deterministic, no network, a few
 * microseconds per sentence. A sentence is kept when its salience reaches
 * KEEP; chatter (greetings, thanks, acknowledgements), questions, the
 * assistant narrating what it is about to do, and speculation score below it
 * unless they also carry a strong cue.
 *
 * Salience = the kind's cue weight + specificity (code tokens, paths, numbers,
 * versions, names) − penalties, clamped to [0, 1]. The namespace budget drops
 * the lowest first, so the same function scores stored statements again when
 * they compete with new ones.
 */
import type { StatementKind } from "../extractor";

export const KEEP = 0.4;

interface Cue {
  kind: StatementKind;
  re: RegExp;
  weight: number;
}

/** In priority order: the first matching cue names the kind; weights add up (capped) for salience. */
const CUES: Cue[] = [
  { kind: "rule", re: /\b(?:never|always|must(?:n'?t| not)?|do not|don'?t ever|shouldn'?t|should never|not allowed|forbidden|mandatory|required to|is required|only ever|policy|rule is|make sure (?:to|you)|under no circumstances|off-limits|no one (?:may|should))\b/i, weight: 0.55 },
  { kind: "decided", re: /\b(?:decided|decision|we(?:'ll| will) (?:go with|use|keep|stick with|switch|move|adopt|drop)|let'?s (?:go with|use|keep|stick with|switch|move|do|adopt|drop|rename|split|merge)|going with|we(?:'re| are) going (?:to|with)|agreed|settled on|we chose|chosen|the plan is|plan:|final answer|we'll standardi[sz]e|standardi[sz]e on|from now on)\b/i, weight: 0.55 },
  { kind: "fixed_by", re: /\b(?:the fix (?:is|was)|fixed (?:it |this |that )?(?:by|with|in)|fix(?:ed)? by|resolved (?:it |this )?(?:by|with)|workaround (?:is|was)|patched|the solution (?:is|was)|solved (?:it |this )?by|fixed in)\b/i, weight: 0.55 },
  { kind: "caused_by", re: /\b(?:root cause|caused by|the cause (?:is|was)|because (?:of )?|due to|the reason (?:is|was)|was failing because|happens because|culprit|turned out to be|it was the|the bug (?:is|was)|race condition|memory leak|off-by-one|deadlock)\b/i, weight: 0.5 },
  { kind: "prefers", re: /\b(?:i prefer|we prefer|prefer(?:s|red)? to|i'?d rather|rather than|i like (?:to|it when)|i don'?t like|please (?:use|keep|avoid|write|name)|our convention|the convention|style guide|i want (?:the|all|every|it)|keep (?:it|them|functions|files) (?:small|short|under))\b/i, weight: 0.45 },
  { kind: "owned_by", re: /\b(?:owns|owner(?:ship)?|maintain(?:s|ed by|er)|responsible for|is on[- ]call|on[- ]call (?:is|this)|belongs to|ask @?\w+ (?:about|for)|reviewer(?:s)? (?:is|are)|team owns|code ?owners?)\b|@[a-z][\w-]+/i, weight: 0.45 },
  { kind: "status", re: /\b(?:is deprecated|deprecated|has been removed|was removed|is removed|merged|shipped|released|rolled back|reverted|is disabled|is enabled|disabled|is blocked|is live|went live|in progress|is done|is finished|feature flag|behind a flag|sunset|end[- ]of[- ]life|frozen|code freeze)\b/i, weight: 0.4 },
  { kind: "has_value", re: /\b(?:set (?:to|at)|defaults? to|is (?:set to|configured (?:to|as))|timeout|port|limit|threshold|version|v?\d+\.\d+(?:\.\d+)?|\d+(?:\.\d+)?\s?(?:ms|s|secs?|seconds?|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?|%|[kmgt]i?b|req\/s|rps|qps|x|×)\b|p9[59]|p50|from \d[\d,.]*\s?\w* to \d)/i, weight: 0.4 },
  // "Retention: completed jobs kept 7 days.", "Signing: ES256" — a labelled line of a summary, an ADR or a doc.
  { kind: "states", re: /^[A-Z][\w ./-]{1,30}:\s+\S/, weight: 0.42 },
  { kind: "located_in", re: /\b(?:lives in|is in|are in|is defined in|defined in|is under|located (?:in|at)|can be found in|is at|sits in|the file|in file|handler is|config(?:uration)? is in|is configured in|run (?:it )?with|run `|the command is|script is)\b/i, weight: 0.35 },
];

export const CORRECTION = /\b(?:now\b[^.]{0,60}\bnot\b|not\b[^.]{1,40}\b(?:any ?more|anymore)|no longer|switched|switching (?:from|to|over)|we moved (?:from|to|off|over)|moved (?:from|off)|migrated (?:from|to|off)|instead of|actually,? (?:it'?s|it is|we|the|they|that)|correction:?|replaced\b[^.]{1,60}\bwith|changed (?:from|it to|to)|used to be|was wrong|i was wrong|not [^.]{1,30}, but|turns out (?:it'?s|we)|rather than|update:|scratch that|ignore what i said|my mistake)\b/i;

const CHATTER = /^(?:thanks|thank you|thx|ty|ok(?:ay)?|k|cool|great|nice|neat|sounds good|sure|yes|yep|yeah|no|nope|hmm+|hi|hello|hey|lgtm|perfect|awesome|got it|makes sense|done|right|alright|good|wow|oh|ah|lol|haha|please|go ahead|do it|ship it|np|no worries|will do|on it)\b[\s!.,:;)]*$/i;
const NARRATION = /^(?:let me|let's (?:see|check|look|try|run|take a look)|i'?ll (?:now |first |then )?(?:check|look|run|open|read|search|start|take|try|update|add|write|go|inspect|investigate|grep|fix)|i(?:'m| am) (?:going to|now|checking|looking|running|reading)|now (?:i'?ll|let me)|next,? (?:i'?ll|let me)|first,? (?:i'?ll|let me)|running|checking|looking at|reading|searching|opening|here(?:'s| is) (?:the|what|a)|i'?ve (?:made|updated|added|changed) the (?:changes|edits)|great question|good question|sure[,!]|of course)\b/i;
const HEDGE = /\b(?:maybe|perhaps|might|could be|possibly|i (?:think|guess|wonder|suspect)|not sure|probably|any idea|wondering)\b/i;
const QUESTION = /\?\s*["')\]]*$/;
/** A verb of assertion: the sentence states how something is, not what someone will do. */
const ASSERTS = /\b(?:is|are|was|were|has|have|uses?|runs?|lives?|sits?|points?|returns?|stores?|reads?|writes?|calls?|takes?|needs?|requires?|expects?|listens?|depends?|contains?|holds?|means?|signed|built|hosted|deployed|configured|defined|kept|set)\b/i;

const CODE_TOKEN = /`[^`]{1,120}`|\b[\w.-]+\/[\w./-]+\b|\b[\w-]+\.(?:ts|tsx|js|jsx|mjs|py|go|rs|java|rb|sql|json|ya?ml|toml|md|sh|css|html|tf|proto|lock)\b|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b|\b[a-z]+(?:_[a-z0-9]+)+\b|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[a-z][a-zA-Z0-9]*[A-Z][a-zA-Z0-9]*\b|\b\w+\.\w+\(\)|\b[A-Z]{2,}\d+[A-Z0-9]*\b/g;
const NUMBER = /\b\d[\d,.]*\s?(?:ms|s|secs?|seconds?|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?|%|[kmgt]i?b|req\/s|rps|qps|x)?\b|\bv?\d+\.\d+(?:\.\d+)?\b/gi;
const NAME = /(?<=[a-z,;:] )[A-Z][a-z]{2,}\b/g;
const ACRONYM = /\b[A-Z]{2,6}s?\b/g;

export interface Classified {
  kind: StatementKind;
  salience: number;
  correction: boolean;
}

function count(re: RegExp, s: string): number {
  re.lastIndex = 0;
  return s.match(re)?.length ?? 0;
}

export function specificity(text: string): number {
  const code = count(CODE_TOKEN, text);
  const nums = count(NUMBER, text);
  const names = count(NAME, text) + count(ACRONYM, text);
  return Math.min(0.35, 0.14 * code + 0.1 * nums + 0.06 * names);
}

/** The kind and salience of one sentence (role-aware: a user's plain statement weighs a little more than an assistant's). */
export function classify(text: string, role: "user" | "assistant" | "tool"): Classified {
  const correction = CORRECTION.test(text);
  let kind: StatementKind | null = null;
  let cue = 0;
  for (const c of CUES) {
    if (!c.re.test(text)) continue;
    kind ??= c.kind;
    cue = Math.max(cue, c.weight) + (cue > 0 ? 0.05 : 0);
  }
  if (correction) cue = Math.max(cue, 0.55) + 0.05;
  const spec = specificity(text);
  // No cue: a plain statement is worth keeping when it asserts something specific ("The access
  // token TTL is 1 hour.", "Tokens are signed with HS256 using JWT_SECRET.").
  let s = (kind || correction ? cue : 0.2 + (spec > 0 && ASSERTS.test(text) ? 0.1 : 0)) + spec;
  const words = text.split(/\s+/).length;
  if (words < 4) s -= 0.3;
  else if (words > 60) s -= 0.1;
  if (CHATTER.test(text)) s -= 0.6;
  if (QUESTION.test(text)) s -= 0.45;
  if (NARRATION.test(text)) s -= 0.3;
  if (HEDGE.test(text) && !correction) s -= 0.2;
  if (role === "user") s += 0.05;
  if (role === "tool") s -= 0.15;
  return { kind: correction && !kind ? "corrected" : (kind ?? "states"), salience: Math.max(0, Math.min(1, Number(s.toFixed(3)))), correction };
}

const OLD_VALUE = [
  /\bnot\s+((?:`[^`]+`|[\w./@:-]+)(?:\s+[\w./@:-]+){0,2}?)\s*(?:any ?more|anymore|,|;|\.|$|\))/i,
  /\binstead of\s+((?:`[^`]+`|[\w./@:-]+)(?:\s+[\w./@:-]+){0,2})/i,
  /\b(?:switched|moved|migrated|changed)(?: \w+){0,3} from\s+((?:`[^`]+`|[\w./@:-]+)(?:\s+[\w./@:-]+){0,2}?)\s+to\b/i,
  /\bno longer\s+(?:uses?|using|in|on|at|is|are|runs?|called|named)?\s*((?:`[^`]+`|[\w./@:-]+)(?:\s+[\w./@:-]+){0,1})/i,
  /\bused to be\s+((?:`[^`]+`|[\w./@:-]+)(?:\s+[\w./@:-]+){0,2})/i,
  /\breplaced\s+((?:`[^`]+`|[\w./@:-]+)(?:\s+[\w./@:-]+){0,2}?)\s+with\b/i,
  /\brather than\s+((?:`[^`]+`|[\w./@:-]+)(?:\s+[\w./@:-]+){0,2})/i,
];

/** The replaced value a correction names ("not HS256" → HS256), as lower-case words; empty when it names none. */
export function oldValues(text: string): string[] {
  const out = new Set<string>();
  for (const re of OLD_VALUE) {
    const m = re.exec(text);
    if (!m?.[1]) continue;
    for (const w of m[1].replace(/`/g, "").toLowerCase().split(/\s+/)) {
      const t = w.replace(/^[^\w@]+|[^\w]+$/g, "");
      if (t.length >= 2 && !COMMON.has(t)) out.add(t);
    }
  }
  return [...out];
}

const COMMON = new Set(["the", "a", "an", "it", "that", "this", "we", "you", "they", "is", "are", "was", "be", "to", "of", "in", "on", "for", "and", "or", "any", "more", "anymore", "there", "here", "now", "just", "so", "too", "very", "really", "use", "using", "used"]);
