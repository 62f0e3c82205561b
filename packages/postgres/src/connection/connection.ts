import type { ParameterOrJSON, Sql } from 'postgres';
import { BoardbotPostgresError, PostgresSchemaMissingError, PostgresUnavailableError } from '../errors.js';
import { type ResolvedPostgresOptions, redactPostgresUrl } from '../options.js';
import { migrate, missingTables } from '../schema/migrate.js';
import { POSTGRES_TABLES, readPostgresMigrations } from '../schema/migrations.js';
import { codeOf, unreachable } from './sql-state.js';

/** What a statement's parameters may be. */
export type Params = readonly (string | number | null)[];

/** A statement's rows, and how many rows it wrote (`count`). */
export type Rows<T> = T[] & { count: number };

/**
 * The stores' one client of the database, shared: opened (the `postgres` package loaded, so only bots
 * that use these stores load it) and the schema migrated or checked at the first statement; ended
 * once every store that used it has closed (a client the caller gave is never ended), and opened
 * again if used after that.
 */
export class PostgresConnection {
  /** Where the stores are, for the logs (no password). */
  readonly description: string;
  private client: Promise<Sql> | undefined;
  private readonly holders = new Set<object>();
  private timer: ReturnType<typeof setInterval> | undefined;

  /**
   * @param options - the resolved options
   * @param sweep - removes rows past their time; run every `sweepIntervalMs` while the client is open
   */
  constructor(
    private readonly options: ResolvedPostgresOptions,
    private readonly sweep: () => Promise<unknown>,
  ) {
    this.description = `postgres ${this.where()} (schema ${options.schema})`;
  }

  /** A table's name, qualified with the stores' schema. */
  table(name: (typeof POSTGRES_TABLES)[number]): string {
    return `"${this.options.schema}".${name}`;
  }

  /**
   * Runs one statement (a prepared statement, its parameters apart from its text) once the schema is
   * ready; `holder` (a store) then keeps the client open until it {@link release}s it.
   */
  async query<T extends object = Record<string, unknown>>(
    holder: object | undefined,
    text: string,
    params: Params,
  ): Promise<Rows<T>> {
    if (holder !== undefined) this.holders.add(holder);
    const sql = await this.open();
    return (await sql.unsafe(text, params as ParameterOrJSON<never>[], { prepare: true })) as unknown as Rows<T>;
  }

  /** Opens the client and readies the schema now, instead of at the first statement. */
  async ready(): Promise<void> {
    await this.open();
  }

  /** `holder` is done with the client: once no store holds it, it is ended (unless it is the caller's). */
  async release(holder: object): Promise<void> {
    if (!this.holders.delete(holder) || this.holders.size > 0) return;
    await this.end();
  }

  /** Ends the client now, whoever holds it (unless it is the caller's); the next statement opens it again. */
  async end(): Promise<void> {
    this.holders.clear();
    clearInterval(this.timer);
    this.timer = undefined;
    const client = this.client;
    this.client = undefined;
    if (client === undefined || this.options.sql !== undefined) return;
    await (await client.catch(() => undefined))?.end({ timeout: 5 });
  }

  private open(): Promise<Sql> {
    if (this.client === undefined) {
      const opening = this.connect();
      this.client = opening;
      // A failed start is not kept: the next statement tries again.
      opening.catch(() => {
        if (this.client === opening) this.client = undefined;
      });
    }
    return this.client;
  }

  private async connect(): Promise<Sql> {
    const o = this.options;
    const sql = o.sql ?? (await this.newClient(o.url as string));
    try {
      const migrations = await readPostgresMigrations();
      if (o.createSchema) await migrate(sql, o.schema, migrations);
      else {
        const missing = await missingTables(sql, o.schema, POSTGRES_TABLES);
        if (missing.length > 0) throw new PostgresSchemaMissingError(o.schema, missing);
      }
    } catch (error) {
      if (o.sql === undefined) await sql.end({ timeout: 0 }).catch(() => {});
      if (error instanceof BoardbotPostgresError) throw error;
      const code = codeOf(error);
      throw code !== undefined && unreachable(code) ? new PostgresUnavailableError(this.where(), error) : error;
    }
    if (o.sweepIntervalMs > 0) {
      this.timer = setInterval(() => void this.sweep().catch(() => {}), o.sweepIntervalMs);
      this.timer.unref();
    }
    return sql;
  }

  private async newClient(url: string): Promise<Sql> {
    const { default: postgres } = await import('postgres');
    return postgres(url, {
      max: this.options.maxConnections,
      connect_timeout: Math.ceil(this.options.connectTimeoutMs / 1000),
      // The migrations' CREATE ... IF NOT EXISTS notices would go to console.log otherwise.
      onnotice: () => {},
      connection: { application_name: `boardbot (${this.options.schema})` },
    });
  }

  private where(): string {
    return this.options.url === undefined ? 'the client given' : redactPostgresUrl(this.options.url);
  }
}
