// The Reporter API on the transport (src/http/): both generations' URLs (v1 with `Authorization: Bearer` and
// the projectShortName of its project, legacy with the token in the path), the words of its requests in
// messages, and its 401/403 error naming REPORTER_TOKEN and the generation. Retries, limits and redaction are
// the transport's. Invariant: the token never appears in an error, a log line or anything returned.
import { EtlError } from '../../errors.js';
import { PLATFORM_ERROR_SHAPES } from '../../http/error-shapes.js';
import type { HttpProfile, HttpRequest } from '../../http/http-profile.js';
import { HttpTransport, type HttpTransportOptions } from '../../http/http-transport.js';

export type { QueryValue } from '../../http/http-profile.js';

export type Generation = 'v1' | 'legacy';

export interface ReporterHttpOptions
  extends Omit<HttpTransportOptions<ReporterRequest>, 'secret' | 'profile'> {
  token: string;
  api: Generation;
  /** projectShortName for v1 (a unified token can span projects). */
  project?: string | undefined;
  /**
   * The setting the base URL came from, in messages about it (`REPORTER_BASE_URL`,
   * `REPORTER_CONFIG projects[0].baseUrl`, ...; default REPORTER_BASE_URL).
   */
  baseUrlSetting?: string;
}

export interface ReporterRequest extends HttpRequest {
  /** `async` for /api/v1/async/... operations (v1 only). */
  scope?: 'reporter' | 'async';
  /** Send projectShortName on v1 (default true when a project is configured). */
  withProject?: boolean;
}

/** The project a v1 request names: settable once the sync has resolved it. */
interface ProjectHolder {
  project: string | undefined;
}

/** The Reporter API's profile: its URLs and words depend on the generation, its projectShortName on `holder`. */
function reporterProfile(options: ReporterHttpOptions, holder: ProjectHolder): HttpProfile<ReporterRequest> {
  const { api } = options;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  // where the generation's operations live; for legacy it contains the token: never log it
  const reporterPrefix =
    api === 'v1'
      ? `${baseUrl}/api/v1/reporter`
      : `${baseUrl}/api/reporter/p/${encodeURIComponent(options.token)}`;
  const describe = (req: ReporterRequest): string =>
    `${req.method} ${req.scope === 'async' ? 'async/' : ''}${req.op} (${api} API)`;
  return {
    name: 'Reporter API',
    auth: api === 'v1' ? { kind: 'bearer' } : { kind: 'path' },
    secretName: 'token',
    baseUrlSetting: options.baseUrlSetting ?? 'REPORTER_BASE_URL',
    urlPrefix(req) {
      if (!req.op || req.scope !== 'async') return reporterPrefix;
      if (api !== 'v1')
        throw new EtlError(
          'reporter.unsupported',
          'asynchronous operations exist only in the v1 API (REPORTER_API=v1)',
        );
      return `${baseUrl}/api/v1/async`;
    },
    describe,
    completeUrl(url, req) {
      if (
        api === 'v1' &&
        holder.project !== undefined &&
        req.withProject !== false &&
        !url.searchParams.has('projectShortName')
      )
        url.searchParams.set('projectShortName', holder.project);
    },
    errorShapes: PLATFORM_ERROR_SHAPES,
    authError(status, detail, req) {
      const how =
        api === 'v1'
          ? 'sent as "Authorization: Bearer" to /api/v1/reporter'
          : 'sent in the path of /api/reporter/p/<token>';
      return new EtlError(
        'reporter.auth',
        `the Reporter API refused REPORTER_TOKEN with ${status}${detail} on ${describe(req)}; the token is ${how} (REPORTER_API=${api}): check the token, that it belongs to this API generation${holder.project ? ` and that it may read project ${holder.project}` : ''}`,
      );
    },
  };
}

export class ReporterHttp extends HttpTransport<ReporterRequest> {
  readonly api: Generation;
  private readonly holder: ProjectHolder;

  constructor(options: ReporterHttpOptions) {
    const holder: ProjectHolder = { project: options.project };
    const { token, api: _api, project: _project, baseUrlSetting: _setting, ...transport } = options;
    super({ ...transport, secret: token, profile: reporterProfile(options, holder) });
    this.api = options.api;
    this.holder = holder;
  }

  /** projectShortName sent on v1; settable once the sync has resolved it. */
  get project(): string | undefined {
    return this.holder.project;
  }

  set project(project: string | undefined) {
    this.holder.project = project;
  }
}
