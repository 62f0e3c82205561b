import { context, ROOT_CONTEXT } from '@opentelemetry/api';

const probe = (): void => {};
/** Set once a context manager was seen: then it is assumed to stay (see `contextManaged`). */
let managed = false;

/**
 * Whether a context manager is registered with OpenTelemetry's API (an SDK's, such as NodeSDK's
 * AsyncLocalStorage one). Without one, `context.with` only calls its function (after copying its
 * arguments twice), so a handler run need not enter its trace context through it: the API's no-op
 * manager binds a function to nothing and returns it as it is, which is the test. Once a manager was
 * seen the answer stays yes without asking again (binding through a real one costs a wrapper);
 * entering through `context.with` after it was removed is still right, only not free.
 */
export function contextManaged(): boolean {
  if (!managed) managed = context.bind(ROOT_CONTEXT, probe) !== probe;
  return managed;
}
