/**
 * The two edits `codesynapse setup codex` makes to Codex's config.toml, on the text, so that
 * everything else in the file — the user's tables, comments, order — stays byte for byte:
 *   - `setTable`: the whole `[name]` table replaced by ours (or appended when absent);
 *   - `setKey`: one `key = value` line inside a table set (the table appended when absent).
 * Only what this file writes is written: plain keys, strings, booleans and arrays of strings.
 */

export type TomlValue = string | boolean | readonly string[];

export function tomlValue(v: TomlValue): string {
  if (typeof v === "boolean") return String(v);
  if (typeof v === "string") return JSON.stringify(v); // a TOML basic string is a JSON string for what we write
  return `[${v.map((s) => JSON.stringify(s)).join(", ")}]`;
}

/** Where the table headed `[name]` starts and ends (the next table header, or the end). */
function tableSpan(lines: string[], name: string): { start: number; end: number } | undefined {
  const start = lines.findIndex((l) => l.trim() === `[${name}]`);
  if (start < 0) return undefined;
  let end = start + 1;
  while (end < lines.length && !/^\s*\[/.test(lines[end]!)) end++;
  // Blank lines and comments just before the next table belong to it.
  while (end > start + 1 && /^\s*(#.*)?$/.test(lines[end - 1]!)) end--;
  return { start, end };
}

export function tableText(name: string, entries: Record<string, TomlValue>): string[] {
  return [`[${name}]`, ...Object.entries(entries).map(([k, v]) => `${k} = ${tomlValue(v)}`)];
}

function withNewline(lines: string[]): string {
  return `${lines.join("\n").replace(/\n+$/, "")}\n`;
}

function append(lines: string[], block: string[]): string[] {
  const kept = [...lines];
  while (kept.length > 0 && kept[kept.length - 1]!.trim() === "") kept.pop();
  return kept.length === 0 ? block : [...kept, "", ...block];
}

/** The file with the table `[name]` holding exactly `entries`. */
export function setTable(text: string, name: string, entries: Record<string, TomlValue>): string {
  const lines = text.split("\n");
  const span = tableSpan(lines, name);
  const block = tableText(name, entries);
  if (!span) return withNewline(append(lines, block));
  return withNewline([...lines.slice(0, span.start), ...block, ...lines.slice(span.end)]);
}

/** The file with `key = value` in the table `[name]` (other keys of the table kept). */
export function setKey(text: string, name: string, key: string, value: TomlValue): string {
  const lines = text.split("\n");
  const span = tableSpan(lines, name);
  const line = `${key} = ${tomlValue(value)}`;
  if (!span) return withNewline(append(lines, [`[${name}]`, line]));
  const at = lines.slice(span.start + 1, span.end).findIndex((l) => new RegExp(`^\\s*${key}\\s*=`).test(l));
  if (at >= 0) lines[span.start + 1 + at] = line;
  else lines.splice(span.start + 1, 0, line);
  return withNewline(lines);
}
