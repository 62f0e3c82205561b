import { FormatRegistry, type Static, type TSchema } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { type Checker, issuesOf } from './checker.js';
import { registerFormats } from './formats.js';

registerFormats(FormatRegistry);

const cache = new WeakMap<TSchema, TypeCheck<TSchema>>();

/**
 * Compiles `schema` once (cached) into a fast checker whose problems use the error envelope's
 * `details` shape, with JSON-pointer-like paths such as `/embeds/0/color`.
 */
export function checkerFor<S extends TSchema>(schema: S): Checker<Static<S>> {
  let compiled = cache.get(schema);
  if (!compiled) {
    compiled = TypeCompiler.Compile(schema);
    cache.set(schema, compiled);
  }
  const c = compiled;
  return {
    is: (value): value is Static<S> => c.Check(value),
    check(value) {
      if (c.Check(value)) return { ok: true, value: value as Static<S> };
      return { ok: false, issues: issuesOf(c.Errors(value)) };
    },
  };
}
