import { type Static, Type } from '@sinclair/typebox';

/** One problem of a `validation_failed` error. */
export const ErrorDetail = Type.Object({ path: Type.String(), message: Type.String() }, { title: 'ErrorDetail' });
export type ErrorDetail = Static<typeof ErrorDetail>;

/**
 * The error envelope of every non-2xx response (CONTRACT.md "Errors"). `code` is a plain string so
 * that a code this version does not know still parses as an error.
 */
export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ minLength: 1 }),
      message: Type.String(),
      details: Type.Optional(Type.Array(ErrorDetail)),
      retry_after: Type.Optional(Type.Number({ minimum: 0 })),
    }),
  },
  { title: 'ErrorEnvelope' },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;
