/** A small multipart/form-data reader for uploads the simulator takes whole (it holds them in memory anyway). */

export interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export function boundaryOf(contentType: string | undefined): string | undefined {
  const match = contentType ? /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType) : null;
  return match ? (match[1] ?? match[2])?.trim() : undefined;
}

/** The parts of a multipart body; undefined when it is not one. */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) return undefined;
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') return parts;
    // Skip the CRLF after the delimiter.
    if (body.subarray(at, at + 2).toString() === '\r\n') at += 2;
    const headerEnd = body.indexOf('\r\n\r\n', at);
    if (headerEnd < 0) return undefined;
    const headers = body.subarray(at, headerEnd).toString('utf8');
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) return undefined;
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return undefined;
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    const contentType = /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1]?.trim();
    parts.push({ name, filename, contentType, data: body.subarray(headerEnd + 4, next) });
    at = next + 2;
  }
}
