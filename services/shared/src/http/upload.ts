/**
 * A file sent as `multipart/form-data` (the original platform's CSV imports of `@users` and `@aliases`). The
 * gateway passes the body on unparsed with its `Content-Type`; an operation that declares `upload` takes it here,
 * read with the runtime's own form-data parser (undici, in Node), within the declared bound.
 */
import { AppError, badRequest, clip } from '../errors/app-error';

/** What an operation takes as an upload: the form field holding the file, its media types, its largest size. */
export interface UploadRule {
  field: string;
  types: readonly string[];
  maxBytes: number;
}

/** The uploaded file: its name as sent, its media type and its text (UTF-8). */
export interface Upload {
  filename: string;
  contentType: string;
  text: string;
}

/** Whether a request's `Content-Type` is a form upload. */
export function isMultipart(contentType: string | undefined): boolean {
  return /^\s*multipart\/form-data\s*(;|$)/i.test(contentType ?? '');
}

export async function readUpload(body: Buffer, contentType: string, rule: UploadRule): Promise<Upload> {
  // The form's boundaries and part headers take a little room beside the file itself.
  if (body.length > rule.maxBytes + 16 * 1024) throw tooLarge(rule);
  let form: FormData;
  try {
    form = await new Request('http://upload.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    }).formData();
  } catch {
    throw badRequest('Malformed multipart/form-data body');
  }
  const file = form.get(rule.field);
  if (file === null || typeof file === 'string')
    throw badRequest(`No file uploaded: send it in the form field "${rule.field}"`);
  const type = file.type.split(';')[0].trim().toLowerCase();
  if (!rule.types.includes(type))
    throw badRequest(`The uploaded file is ${clip(type || 'of no type', 100)}; expected ${rule.types.join(' or ')}`);
  if (file.size > rule.maxBytes) throw tooLarge(rule);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    throw badRequest('The uploaded file is not UTF-8 text');
  }
  return { filename: clip(file.name, 255), contentType: type, text };
}

const tooLarge = (rule: UploadRule) =>
  new AppError('PayloadTooLarge', `The uploaded file is larger than ${rule.maxBytes} bytes`);

/** Whether the request's `Accept` names `type` (exactly or with parameters), as the original platform checks it. */
export function accepts(accept: string | undefined, type: string): boolean {
  return (accept ?? '').split(',').some((range) => range.split(';')[0].trim().toLowerCase() === type);
}
