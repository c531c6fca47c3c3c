// ClickHouse over its HTTP interface: a statement in the POST body (or the query string for an INSERT whose
// rows are the body), JSONEachRow answers, HTTP basic authentication. The password never appears in a
// message; ClickHouse's own error text is kept (its first line), with the setting to check. A request that
// cannot connect is worded (nothing answers, https to plain HTTP, ...), never with OpenSSL's own text.
import { Agent, request } from 'undici';
import { EtlError } from '../../errors.js';
import { connectFailureOf, describeConnectFailure } from '../../http/describe-connect-failure.js';
import { redactSecrets } from '../../secrets/redact-secrets.js';

export interface ClickHouseSettings {
  /** REPORTER_CLICKHOUSE_URL: http(s)://host:8123 */
  url: string;
  user: string;
  password: string;
  database: string;
  timeoutMs?: number;
}

export interface ClickHouse {
  readonly database: string;
  /** Runs a statement; its answer as text. */
  run(sql: string): Promise<string>;
  /** Runs a SELECT … FORMAT JSONEachRow and parses its rows. */
  select<T = Record<string, unknown>>(sql: string): Promise<T[]>;
  /** INSERT INTO table FORMAT JSONEachRow with these rows. */
  insert(table: string, rows: readonly Record<string, unknown>[]): Promise<void>;
  close(): Promise<void>;
}

export function createClickHouse(settings: ClickHouseSettings): ClickHouse {
  const agent = new Agent({ connections: 4, keepAliveTimeout: 10_000 });
  const timeoutMs = settings.timeoutMs ?? 120_000;
  const auth = `Basic ${Buffer.from(`${settings.user}:${settings.password}`).toString('base64')}`;
  // the password, and the whole `user:password` its Basic auth encodes (both redacted in every encoding)
  const secrets =
    settings.password === '' ? [] : [settings.password, `${settings.user}:${settings.password}`];
  const send = async (query: string | undefined, body: string): Promise<string> => {
    const url = new URL(settings.url);
    if (query !== undefined) url.searchParams.set('query', query);
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'text/plain; charset=utf-8' },
        body,
        dispatcher: agent,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (cause) {
      const failure = connectFailureOf(cause);
      throw new EtlError(
        'clickhouse.unavailable',
        failure
          ? `ClickHouse: ${describeConnectFailure(failure, 'REPORTER_CLICKHOUSE_URL', url.origin)} (${failure.code})`
          : `ClickHouse at ${url.origin} (REPORTER_CLICKHOUSE_URL) did not answer: ${(cause as Error).message}`,
        { kind: 'transient', cause },
      );
    }
    const text = await response.body.text();
    if (response.statusCode >= 200 && response.statusCode < 300) return text;
    const reason = redactSecrets(text.trim().split('\n')[0] ?? '', secrets);
    const statement = (query ?? body).trim().split('\n')[0]?.slice(0, 120);
    if (
      response.statusCode === 401 ||
      response.statusCode === 403 ||
      /Authentication failed|password is incorrect/i.test(text)
    )
      throw new EtlError(
        'clickhouse.auth',
        `ClickHouse refused REPORTER_CLICKHOUSE_USER ${settings.user} (${response.statusCode}): check REPORTER_CLICKHOUSE_PASSWORD`,
      );
    throw new EtlError(
      'clickhouse.failed',
      `ClickHouse answered ${response.statusCode} to ${statement}: ${reason}`,
      {
        kind: response.statusCode >= 500 && !/Code: (47|60|62|81)\b/.test(text) ? 'transient' : 'terminal',
      },
    );
  };
  return {
    database: settings.database,
    run: (sql) => send(undefined, sql),
    async select<T>(sql: string) {
      const text = await send(undefined, sql);
      return text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as T);
    },
    async insert(table, rows) {
      if (rows.length === 0) return;
      await send(`INSERT INTO ${table} FORMAT JSONEachRow`, rows.map((r) => JSON.stringify(r)).join('\n'));
    },
    close: () => agent.close(),
  };
}
