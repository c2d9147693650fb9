/**
 * Each operation's input and output, read from the generated OpenAPI types
 * (src/generated/api.ts). An input is one flat object, as in the catalog and
 * the MCP tools: its path parameters, query and JSON body fields together; the
 * client puts each field where the route takes it.
 */
import type { components, operations, ROUTES } from "./generated/api";

/** Every catalog operation the server mounts over HTTP, by its operationId. */
export type OperationId = keyof operations & keyof typeof ROUTES;

/** No fields. */
export type Empty = Record<never, never>;
type Simplify<T> = { [K in keyof T]: T[K] };
type Or<T, D> = [T] extends [never] ? D : [T] extends [undefined] ? D : T;
type Params<K extends OperationId> = operations[K]["parameters"];
type PathIn<K extends OperationId> = Params<K> extends { path: infer P } ? P : Empty;
type QueryIn<K extends OperationId> = Or<NonNullable<Params<K>["query"]>, Empty>;
type BodyIn<K extends OperationId> =
  NonNullable<operations[K]["requestBody"]> extends { content: { "application/json": infer B } } ? Or<B, Empty> : Empty;

/** What `call(id, input)` takes. */
export type Input<K extends OperationId> = Simplify<PathIn<K> & QueryIn<K> & BodyIn<K>>;

type Success<R> = R extends { 200: infer S } ? S : R extends { 201: infer S } ? S : R extends { 202: infer S } ? S : R extends { 204: unknown } ? { content?: never } : never;
type JsonOf<S> = S extends { content: { "application/json": infer B } } ? B : void;

/** What `call(id, input)` resolves to (void for an operation that answers 204). */
export type Output<K extends OperationId> = JsonOf<Success<operations[K]["responses"]>>;

/** The platform's stable error codes (core/errors.ts), as the OpenAPI document lists them. */
export type PlatformErrorCode = components["schemas"]["Error"]["error"]["code"];

/** The execution identity a session runs as (HTTP-1a); registration answers the same shape. */
export type Identity = Output<"execution.identity">;
