// Words for a request that never reached a server: nothing listening, a host that does not resolve, an https://
// address answered in plain HTTP, a refused TLS handshake. Every HTTP client (the Reporter's transport and its
// siblings, ClickHouse) names with it the setting that holds the address and says what to check.
// Invariant: OpenSSL's own text is never part of a message: a TLS failure is worded from its code.

export type ConnectFailureKind = 'refused' | 'unknown_host' | 'plain_http' | 'tls';

export interface ConnectFailure {
  kind: ConnectFailureKind;
  /** The system's or OpenSSL's code (ECONNREFUSED, ENOTFOUND, ERR_SSL_WRONG_VERSION_NUMBER, ...). */
  code: string;
}

const NOTHING_ANSWERS = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN']);
const UNKNOWN_HOST = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME']);
/** OpenSSL reading an HTTP answer as a TLS record. */
const PLAIN_HTTP = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG']);
const CERTIFICATE = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The codes of an error and its causes (undici wraps the socket's error). */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    e = (e as { cause?: unknown }).cause;
  }
  return codes;
}

/** What kind of connection failure `error` is, or undefined when the request did reach a server. */
export function connectFailureOf(error: unknown): ConnectFailure | undefined {
  for (const code of codesOf(error)) {
    if (NOTHING_ANSWERS.has(code)) return { kind: 'refused', code };
    if (UNKNOWN_HOST.has(code)) return { kind: 'unknown_host', code };
    if (PLAIN_HTTP.has(code)) return { kind: 'plain_http', code };
    if (code.startsWith('ERR_SSL_') || CERTIFICATE.has(code)) return { kind: 'tls', code };
  }
  const message = error instanceof Error ? error.message : '';
  if (/wrong version number/i.test(message))
    return { kind: 'plain_http', code: 'ERR_SSL_WRONG_VERSION_NUMBER' };
  return undefined;
}

/** `host:port` of a URL (the port the scheme implies when it has none), or the text itself if not a URL. */
function hostAndPort(baseUrl: string): { host: string; hostname: string } {
  try {
    const url = new URL(baseUrl);
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    return { host: `${url.hostname}:${port}`, hostname: url.hostname };
  } catch {
    return { host: baseUrl, hostname: baseUrl };
  }
}

/**
 * The message of a connection failure: `setting` names where the address came from (REPORTER_BASE_URL,
 * `REPORTER_CONFIG projects[0].baseUrl`, ...), `baseUrl` is the address (never one with a secret in it).
 * Without the code: the caller adds it, with what it was doing.
 */
export function describeConnectFailure(failure: ConnectFailure, setting: string, baseUrl: string): string {
  const { host, hostname } = hostAndPort(baseUrl);
  switch (failure.kind) {
    case 'refused':
      return `nothing answers at ${setting} ${baseUrl}: is the address right, is the server running?`;
    case 'unknown_host':
      return `the host ${hostname} of ${setting} ${baseUrl} is not known: is the address right, does this machine reach its DNS?`;
    case 'plain_http':
      return `${setting} says https but the server at ${host} answers plain HTTP: use http:// if that is right, or the port where it speaks https`;
    case 'tls':
      return `the TLS handshake with the server at ${host} (${setting} ${baseUrl}) failed: does it speak https on that port, and is its certificate valid for ${hostname}?`;
  }
}
