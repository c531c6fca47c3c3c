// The shapes of the error bodies the platform's interfaces answer, each read into the detail a message
// appends (`: <code> <text>`): the Reporter API's `{error, message}` and the knowledge base's
// `{code, description}`. A profile lists the shapes its interface answers, the first that knows a body wins.

/** The detail of an error body of this shape, `: ...`; undefined when the body is not of this shape. */
export type ErrorShape = (body: { [field: string]: unknown }) => string | undefined;

/** `{error, message}` (the Reporter API, the Chat API, the Prompter, Pushgate). */
export const messageErrorShape: ErrorShape = (body) =>
  typeof body['message'] === 'string'
    ? `: ${body['error'] ?? ''} ${body['message']}`.replace(/\s+/g, ' ')
    : undefined;

/** `{code, description}` (the knowledge base service). */
export const codeDescriptionErrorShape: ErrorShape = (body) =>
  typeof body['description'] === 'string' || typeof body['code'] === 'string'
    ? `: ${body['code'] ?? ''} ${body['description'] ?? ''}`.replace(/\s+/g, ' ').trimEnd()
    : undefined;

/** Both, `{error, message}` first: what every interface of the platform has been read with. */
export const PLATFORM_ERROR_SHAPES: readonly ErrorShape[] = [messageErrorShape, codeDescriptionErrorShape];

/**
 * The detail of an error answer's body: the first shape's that knows it, `' (an HTML page)'` for an HTML page,
 * else empty.
 */
export function readErrorDetail(text: string, shapes: readonly ErrorShape[]): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text.trim().startsWith('<') ? ' (an HTML page)' : '';
  }
  if (body === null || typeof body !== 'object') return '';
  for (const shape of shapes) {
    const detail = shape(body as { [field: string]: unknown });
    if (detail !== undefined) return detail;
  }
  return '';
}
