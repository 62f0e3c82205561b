import { type Context, type Span, trace } from '@opentelemetry/api';

/**
 * The key under which OpenTelemetry's API keeps a context's span, learnt from the API itself:
 * `trace.setSpan` is asked to set a span on a context that only notes the key it is given.
 */
const SPAN_KEY: symbol = (() => {
  let key: symbol | undefined;
  const noting: Context = {
    getValue: () => undefined,
    setValue(k) {
      key = k;
      return noting;
    },
    deleteValue: () => noting,
  };
  trace.setSpan(noting, trace.wrapSpanContext({ traceId: '', spanId: '', traceFlags: 0 }));
  if (key === undefined) throw new Error('@opentelemetry/api set no span key');
  return key;
})();

/**
 * A context that is its parent with one value more: a link, not a copy. The API's own contexts copy
 * their whole map and make three closures on each `setValue`; the runtime makes two contexts per
 * traced event (the event's span, then its handler's), which then cost one small object each.
 */
class LinkedContext implements Context {
  constructor(
    private readonly parent: Context,
    private readonly key: symbol,
    private readonly value: unknown,
  ) {}

  getValue(key: symbol): unknown {
    return key === this.key ? this.value : this.parent.getValue(key);
  }

  setValue(key: symbol, value: unknown): Context {
    return new LinkedContext(this, key, value);
  }

  deleteValue(key: symbol): Context {
    // A value of undefined reads as none, as a deleted key does.
    return new LinkedContext(this, key, undefined);
  }
}

/**
 * `trace.setSpan(parent, span)`, as a link to `parent` rather than a copy of it.
 * @param parent - the context the span is a child of
 * @param span - the span
 */
export function withSpan(parent: Context, span: Span): Context {
  return new LinkedContext(parent, SPAN_KEY, span);
}
