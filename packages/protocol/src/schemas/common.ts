import { type TLiteral, type TSchema, type TUnion, Type } from '@sinclair/typebox';
import { UUID_PATTERN } from '../limits.js';

/** A UUID (CONTRACT.md "Base, formats, auth": v4 or v7, canonical text). */
export const Uuid = Type.String({ format: 'uuid', pattern: UUID_PATTERN, title: 'Uuid' });

/** An RFC 3339 UTC time with milliseconds, e.g. `2026-11-21T10:00:00.000Z`. */
export const DateTime = Type.String({ format: 'date-time', examples: ['2026-11-21T10:00:00.000Z'] });

/** `T | null`, the contract's nullable field. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * One of the given strings. Callers name the union (`OneOf<OptionType>`): an inferred union of
 * literals is printed in whatever order the compiler met them, so declarations (and the API report)
 * would change from one build to the next.
 */
export type OneOf<T extends string> = TUnion<TLiteral<T>[]>;

/** The schema of {@link OneOf}. */
export const oneOf = <T extends string>(values: readonly T[]): OneOf<T> =>
  Type.Union(values.map((value) => Type.Literal(value)));
