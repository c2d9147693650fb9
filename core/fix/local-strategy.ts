/**
 * The deterministic local fix strategy (WRK-5): it understands a problem that
 * names a concrete textual edit —
 *   replace "old text" with "new text" [in path/to/file]
 *   rename oldName to newName [in path/to/file]
 * — and applies it to the files given (a rename matches whole identifiers
 * only), within single lines, so the result is an exact unified diff. Anything
 * else yields no patch and says so; it never invents an edit. The patch is
 * made by jsdiff (./diff.ts) and checked against the snapshot by the fix job.
 */
import { filePatch } from "./diff";

export interface LocalEdit {
  find: RegExp;
  replace: string;
  file?: string;
}

const Q = "[`\"']";

export function parseEdit(problem: string): LocalEdit | null {
  const inFile = new RegExp(`\\bin\\s+${Q}?([\\w./-]+\\.[A-Za-z0-9]+)${Q}?`).exec(problem)?.[1];
  const file = inFile ? { file: inFile } : {};
  const rep = new RegExp(`\\b(?:replace|change)\\s+${Q}([^\`"'\\n]+)${Q}\\s+(?:with|to|by)\\s+${Q}([^\`"'\\n]*)${Q}`, "i").exec(problem);
  if (rep) return { find: new RegExp(rep[1]!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "g"), replace: rep[2]!, ...file };
  const ren = new RegExp(`\\brename\\s+${Q}?([A-Za-z_$][\\w$]*)${Q}?\\s+(?:to|as)\\s+${Q}?([A-Za-z_$][\\w$]*)${Q}?`, "i").exec(problem);
  if (ren) return { find: new RegExp(`(?<![\\w$])${ren[1]!.replace(/\$/g, "\\$")}(?![\\w$])`, "g"), replace: ren[2]!, ...file };
  return null;
}

export function proposeLocalPatch(problem: string, files: Array<{ path: string; text: string }>): { patch: string; files: string[] } {
  const edit = parseEdit(problem);
  if (!edit) return { patch: "", files: [] };
  const parts: string[] = [];
  const touched: string[] = [];
  for (const f of files) {
    if (edit.file && f.path !== edit.file && !f.path.endsWith(`/${edit.file}`)) continue;
    const after = f.text
      .split("\n")
      .map((line) => line.replace(edit.find, () => edit.replace))
      .join("\n");
    if (after === f.text) continue;
    parts.push(filePatch(f.path, f.text, after));
    touched.push(f.path);
  }
  return { patch: parts.join(""), files: touched };
}
