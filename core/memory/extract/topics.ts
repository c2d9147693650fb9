/**
 * What a statement is about: code things (backticked spans, paths, files,
 * identifiers, env vars, commands, versions) and, in plain language, the
 * sentence's subject phrase ("access tokens", "the staging deploy"). No
 * tagger: content words around the first verb, minus stop words, at most
 * three, lower-cased so that "Access tokens" and "access tokens" are one topic.
 */
import type { Topic } from "../extractor";

const COMMAND = /^(?:npm|npx|pnpm|yarn|node|git|make|docker|kubectl|helm|terraform|cargo|go|python|pip|pytest|bash|sh|curl|psql|redis-cli|gh|bun|deno|mvn|gradle|sudo)\b/;
const PATH = /^(?:\.{0,2}\/)?[\w.@-]+(?:\/[\w.@-]+)+\/?$|^[\w-]+\.(?:ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|rb|sql|json|ya?ml|toml|md|sh|css|html|tf|proto|lock|env)$/;
const ENV = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const VERSION = /^v?\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?$/;
const IDENT = /^(?:[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-z][a-zA-Z0-9]*[A-Z][a-zA-Z0-9]*|[a-z]+(?:_[a-z0-9]+)+|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(\))?|[A-Za-z_$][\w$]*\(\))$/;
const TOKEN = /`([^`]{1,120})`|((?:\.{0,2}\/)?[\w.@-]+(?:\/[\w.@-]+)+\/?)|([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?)/g;

export function codeType(name: string): string | null {
  if (COMMAND.test(name) && /\s/.test(name)) return "command";
  if (PATH.test(name)) return "file";
  if (ENV.test(name)) return "env";
  if (VERSION.test(name)) return "version";
  if (IDENT.test(name)) return "symbol";
  return null;
}

/** Code things in the sentence, in order, deduplicated. */
export function codeTopics(text: string): Topic[] {
  const out = new Map<string, Topic>();
  TOKEN.lastIndex = 0;
  for (const m of text.matchAll(TOKEN)) {
    const raw = (m[1] ?? m[2] ?? m[3] ?? "").replace(/[.,:;]+$/, "").trim();
    if (raw.length < 2 || raw.length > 120 || raw.includes("[REDACTED")) continue;
    const type = m[1] !== undefined ? (codeType(raw) ?? (COMMAND.test(raw) ? "command" : "symbol")) : codeType(raw);
    if (!type || type === "version") continue;
    const key = raw.toLowerCase();
    if (!out.has(key)) out.set(key, { name: raw.replace(/\(\)$/, ""), type });
  }
  return [...out.values()];
}

const STOP = new Set(
  (
    "a an the this that these those it its it's we we're we'll we've our us you your you're i i'm i'll i've me my they them their he she his her " +
    "is are was were be been being am do does did done has have had having will would should could can may might must shall " +
    "to of in on at by for with from into onto over under about as and or but if then so than too very just also still now " +
    "not no never always only all any some every each both either neither more most less least other another such same " +
    "there here when where why how what which who whom whose while until after before because since though although " +
    "yes yeah ok okay please thanks let let's lets make sure use using used get got set run running go going like want need " +
    "one two three first second last new old good bad big small sure really actually basically maybe probably think know see look"
  ).split(" "),
);

const VERBISH = /^(?:is|are|was|were|has|have|had|uses?|used|runs?|ran|calls?|needs?|lives?|sits?|takes?|goes|gets?|returns?|reads?|writes?|stores?|signs?|signed|owns?|handles?|breaks?|broke|fails?|failed|caused?|fixes|fixed|should|must|will|can|cannot|can't|won't|doesn't|don't|isn't|aren't|wasn't|never|always|deploys?|deployed|points?|depends?|expects?|defaults?|belongs?|happens?|starts?|started|stops?|stopped|moved|switched|migrated|changed|replaced|decided|agreed|prefer|prefers|timed|times)$/i;

function words(text: string): string[] {
  return text
    .replace(/`[^`]*`/g, " ")
    .replace(/[^\p{L}\p{N}\s'-]/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
}

/** Chat openers that are nobody's subject ("ok so", "ah right,", "Got it:", "Correction:"). */
const OPENER = /^(?:(?:ok(?:ay)?|so|well|ah|oh|hmm+|right|yeah|yes|yep|no|nope|wait|got it|noted|confirmed|thanks|thank you|correction|update|actually|and|but|also|fyi|btw|heads up|note|sure|great|cool|perfect|done)\b[\s,:;!.—–-]*)+/i;

/** The sentence's subject phrase in plain language, or null (a sentence of pronouns and verbs). */
export function subjectPhrase(text: string): string | null {
  const ws = words(text.replace(OPENER, ""));
  const verb = ws.findIndex((w, i) => i > 0 && VERBISH.test(w));
  const runs: string[][] = [];
  let cur: string[] = [];
  const cut = () => {
    if (cur.length) runs.push(cur);
    cur = [];
  };
  ws.forEach((w, i) => {
    const lw = w.toLowerCase().replace(/^'+|'+$/g, "");
    if (STOP.has(lw) || VERBISH.test(lw) || lw.length < 2 || /^\d+$/.test(lw) || (i === verb && verb >= 0)) cut();
    else cur.push(lw);
  });
  cut();
  if (runs.length === 0) return null;
  // Prefer the run before the first verb (the grammatical subject), else the first run after it.
  const before = verb > 0 ? runs.find((r) => ws.slice(0, verb).map((w) => w.toLowerCase()).includes(r[0]!)) : undefined;
  const pick = before ?? runs[0]!;
  return pick.slice(-3).join(" ");
}

/** 1..3 topics: the main one first (a code thing the sentence starts with, else its subject phrase), then code things. */
export function topicsOf(text: string): Topic[] {
  const code = codeTopics(text);
  const phrase = subjectPhrase(text);
  const out: Topic[] = [];
  const firstCode = code[0];
  const codeFirst = firstCode !== undefined && text.replace(/`/g, "").trimStart().toLowerCase().startsWith(firstCode.name.toLowerCase());
  // A subject phrase that is a code thing's name ("The PaymentService depends on…") is that code thing.
  const named = phrase ? code.find((c) => c.name.toLowerCase().replace(/[^a-z0-9]/g, "") === phrase.replace(/[^a-z0-9]/g, "")) : undefined;
  if (codeFirst) out.push(firstCode);
  else if (named) out.push(named);
  else if (phrase) out.push({ name: phrase, type: "topic" });
  for (const c of code) if (out.length < 3 && !out.some((t) => t.name.toLowerCase() === c.name.toLowerCase())) out.push(c);
  if (out.length === 0) out.push({ name: "conversation", type: "topic" });
  return out;
}
