import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Platform } from '../platform/platform.js';

/**
 * The emulator's own Prometheus metrics, served at `GET /metrics`: requests by API, method, route
 * template and status (never an id or a token), open gateway and activity streams, and what its
 * storage holds. prom-client, as the bot's `/metrics` uses.
 */
export class EmulatorMetrics {
  /** The registry `/metrics` renders. */
  readonly registry = new Registry();
  private readonly requests: Counter<'api' | 'method' | 'route' | 'status'>;
  private readonly seconds: Histogram<'api' | 'method' | 'route'>;
  // The labelled children of each (api, method, route, status): prom-client would hash the label
  // object on every request. Route templates and statuses are few, so this stays small.
  private readonly children = new Map<string, { count: Counter.Internal; time: Histogram.Internal<string> }>();

  /** @param p - the platform whose streams and storage are read at scrape time */
  constructor(p: Platform) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'boardbot_emulator_requests_total',
      help: 'Requests answered, by API (app, control, other), method, route template and status.',
      labelNames: ['api', 'method', 'route', 'status'],
      registers,
    });
    this.seconds = new Histogram({
      name: 'boardbot_emulator_request_duration_seconds',
      help: 'Time from a request arriving to its answer, by API, method and route template.',
      labelNames: ['api', 'method', 'route'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers,
    });
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    gauge('boardbot_emulator_gateway_streams', 'Open gateway (SSE) streams of apps.', () => p.gateway.size);
    gauge('boardbot_emulator_activity_streams', 'Open activity streams of the control API.', () => p.activity.size);
    const db = p.store.db;
    const count = (table: string) => db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck();
    const messages = count('messages');
    const events = count('events');
    const interactions = count('interactions');
    gauge(
      'boardbot_emulator_stored_messages',
      'Messages in storage, tombstones included.',
      () => messages.get() as number,
    );
    gauge('boardbot_emulator_stored_events', 'Gateway events retained for replay.', () => events.get() as number);
    gauge('boardbot_emulator_stored_interactions', 'Interactions in storage.', () => interactions.get() as number);
    gauge('boardbot_emulator_storage_bytes', 'Size of the SQLite database (pages × page size).', () => {
      const pages = db.pragma('page_count', { simple: true }) as number;
      const size = db.pragma('page_size', { simple: true }) as number;
      return pages * size;
    });
  }

  /**
   * Counts one answered request.
   * @param api - `app`, `control` or `other`
   * @param method - its method
   * @param route - its route template, or `unmatched`
   * @param status - the answer's status
   * @param seconds - how long it took
   */
  observe(api: string, method: string, route: string, status: number, seconds: number): void {
    const key = `${api} ${method} ${route} ${status}`;
    let child = this.children.get(key);
    if (!child) {
      child = {
        count: this.requests.labels(api, method, route, String(status)),
        time: this.seconds.labels(api, method, route),
      };
      this.children.set(key, child);
    }
    child.count.inc();
    child.time.observe(seconds);
  }
}
