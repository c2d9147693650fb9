/**
 * The CLI mounter, the third beside REST (api/operations.ts) and MCP (api/mcp/tools/): every
 * catalog operation with a `cli` binding is a `codesynapse admin` command. Its flags are the
 * operation's input fields, `_` written `-` (`key_prefix` is `--key-prefix`): a boolean field is a
 * switch, a number is written in digits, anything else is text. The input is then validated by the
 * operation's own schema — strict, so an unknown flag is refused — as the REST route validates its
 * body. A command runs on the database itself (`runLocal`, the local operator) or through its REST
 * route on a running server (main/remote-admin.ts); both answer the same object.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { AppError } from "../core/errors";
import { CATALOG } from "../ops/catalog";
import { authOf, inputSchemaOf, type Operation, type OpServices } from "../ops/operation";
import { parseWith } from "./http";

/** The flags every command takes beside its input: the answer as one JSON line, and never through a server. */
export const CLI_SWITCHES = ["json", "offline"] as const;

const flagOf = (field: string) => field.replace(/_/g, "-");
const fieldOf = (flag: string) => flag.replace(/-/g, "_");

function base(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault) s = s.unwrap() as z.ZodType;
  return s;
}

/** The commands: command name → operation, in the catalog's order. */
export function cliCommands(catalog: readonly Operation[] = CATALOG): Map<string, Operation> {
  return new Map(catalog.flatMap((op) => (op.cli ? [[op.cli.command, op] as const] : [])));
}

/** One command's flags as the usage prints them: `--org ORG [--password PASSWORD] [--platform-admin]`. */
export function flagUsage(op: Operation): string {
  return Object.entries(op.input)
    .map(([field, schema]) => {
      const s = base(schema as z.ZodType);
      const value = s instanceof z.ZodBoolean ? "" : s instanceof z.ZodEnum ? ` ${(s.options as string[]).join("|")}` : ` ${field.toUpperCase()}`;
      const flag = `--${flagOf(field)}${value}`;
      return (schema as z.ZodType).safeParse(undefined).success ? `[${flag}]` : flag;
    })
    .join(" ");
}

/** Every command's usage line (command → flags). */
export const ADMIN_USAGE: Readonly<Record<string, string>> = Object.fromEntries([...cliCommands()].map(([command, op]) => [command, flagUsage(op)]));

/** A command's input from its arguments, validated by the operation's schema (a refusal names the flags). */
export function cliInput(op: Operation, args: string[]): Record<string, unknown> {
  const options = Object.fromEntries(
    Object.entries(op.input).map(([field, schema]) => [flagOf(field), { type: base(schema as z.ZodType) instanceof z.ZodBoolean ? ("boolean" as const) : ("string" as const) }]),
  );
  const { values } = parseArgs({ args, strict: false, options: { ...options, ...Object.fromEntries(CLI_SWITCHES.map((s) => [s, { type: "boolean" as const }])) } });
  const input: Record<string, unknown> = {};
  for (const [flag, v] of Object.entries(values)) {
    if ((CLI_SWITCHES as readonly string[]).includes(flag)) continue;
    const field = fieldOf(flag);
    const s = op.input[field] ? base(op.input[field] as z.ZodType) : undefined;
    input[field] = typeof v === "string" && s instanceof z.ZodNumber && /^-?\d+$/.test(v) ? Number(v) : v;
  }
  try {
    return parseWith(inputSchemaOf(op), input, "(flags)") as Record<string, unknown>;
  } catch (err) {
    const problems = ((err as AppError).details?.problems ?? []) as Array<{ path: string }>;
    const flags = [...new Set(problems.map((p) => (p.path === "(flags)" ? p.path : `--${flagOf(p.path.split(".")[0]!)}`)))];
    throw new AppError("validation_failed", { message: `Missing or not valid: ${flags.join(", ")}.`, details: (err as AppError).details });
  }
}

/** Runs a command on the database itself, as the local operator; its answer passes the output schema as over REST. */
export async function runLocal(op: Operation, input: Record<string, unknown>, services: OpServices): Promise<object> {
  if (authOf(op) !== "local_admin") throw new AppError("internal", { cause: new Error(`${op.name} is not the local operator's`) });
  const { conformAnswer } = await import("./run-operation"); // not loaded by a command sent to a server
  const out = await op.run({ services, signal: AbortSignal.timeout(600_000), clientIp: "local", actor: undefined, via: "offline" } as never, input as never);
  return (conformAnswer(op, out, services) ?? {}) as object;
}
