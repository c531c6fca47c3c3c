// The knowledge base service's errors: an HTTP status with a `{code, description}` body (the seed's
// ErrorBody). Codes follow `kb.<kind>.<what>`; the server turns a KbError (or any ApiError thrown by
// shared readers) into that body, and 429s carry Retry-After in seconds.
import { ApiError } from '../api-error.js';

export class KbError extends ApiError {}

export function kbBody(error: ApiError): { code: string; description: string } {
  return { code: error.error.replace(/^reporter\./, 'kb.'), description: error.message };
}

/** 400 naming the field or parameter at fault. */
export function kbBadRequest(field: string, message: string): KbError {
  return new KbError(400, 'kb.bad_request.invalid_parameter', `${field}: ${message}`);
}

export function kbNotFound(what: string, id: string | number | bigint): KbError {
  return new KbError(404, `kb.not_found.${what}`, `${what} ${id} not found`);
}
