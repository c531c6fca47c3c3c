// A small multipart/form-data reader for the source upload operations (field `file` plus text fields):
// enough for what clients send (RFC 7578 parts with Content-Disposition name and filename), no streaming.
import { kbBadRequest } from './kb-error.js';

export interface MultipartPart {
  name: string;
  filename?: string;
  data: Buffer;
}

export interface MultipartForm {
  parts: MultipartPart[];
}

export function parseMultipart(body: Buffer, contentType: string): MultipartForm {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const mark = boundary?.[1] ?? boundary?.[2];
  if (!mark) throw kbBadRequest('body', 'multipart/form-data without a boundary');
  const delimiter = Buffer.from(`--${mark}`);
  const parts: MultipartPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw kbBadRequest('body', 'multipart body without its boundary');
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') break;
    const headerEnd = body.indexOf('\r\n\r\n', at);
    const next = body.indexOf(delimiter, at);
    if (headerEnd < 0 || next < 0) throw kbBadRequest('body', 'a multipart part is cut short');
    const headers = body.subarray(at, headerEnd).toString('utf8');
    const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    // the part's data ends before the CRLF that precedes the next delimiter
    const data = body.subarray(headerEnd + 4, Math.max(headerEnd + 4, next - 2));
    if (name !== undefined) parts.push({ name, ...(filename === undefined ? {} : { filename }), data });
    at = next;
  }
  return { parts };
}

/** The text fields of a name (repeated fields, or one holding a JSON array). */
export function formValues(form: MultipartForm, name: string): string[] | undefined {
  const values = form.parts
    .filter((p) => p.name === name && p.filename === undefined)
    .map((p) => p.data.toString('utf8'));
  if (values.length === 0) return undefined;
  return values.flatMap((v) => {
    if (!v.startsWith('[')) return [v];
    try {
      const parsed: unknown = JSON.parse(v);
      return Array.isArray(parsed) ? parsed.map(String) : [v];
    } catch {
      return [v];
    }
  });
}
