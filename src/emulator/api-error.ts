// The emulator's error answers: an HTTP status with an ErrorDto {error, message, args?} body, thrown by
// handlers and turned into a response by the server. `error` follows 'service.assertion_type.short_description'.
export class ApiError extends Error {
  readonly status: number;
  readonly error: string;
  readonly args: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    error: string,
    message: string,
    args?: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.error = error;
    this.args = args;
    this.headers = headers;
  }

  toDto(): Record<string, unknown> {
    return this.args === undefined
      ? { error: this.error, message: this.message }
      : { error: this.error, message: this.message, args: this.args };
  }
}

/** 400 naming the parameter at fault. */
export function badParameter(parameter: string, message: string): ApiError {
  return new ApiError(400, 'reporter.bad_request.invalid_parameter', `${parameter}: ${message}`, {
    parameter,
  });
}

export function notFound(what: string, id: string): ApiError {
  return new ApiError(404, 'reporter.not_found', `${what} ${id} not found`, { id });
}
