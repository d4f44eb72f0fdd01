import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../shared/errors.ts';
import { MAX_BODY_BYTES } from '../../shared/platform-limits.ts';

/**
 * Reads a JSON request body. The size is decided before parsing (declared length, then bytes as they arrive),
 * and nothing is parsed that is not sent as `application/json`.
 */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/.test(type)) {
    throw new ApiError('invalid_json', 'Send the body as JSON with Content-Type: application/json.');
  }
  if (size === 0) throw new ApiError('invalid_json', 'The body is empty; send a JSON object.');
  try {
    return JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
  } catch {
    throw new ApiError('invalid_json', 'The body is not valid JSON.');
  }
}

function tooLarge(limit: number): ApiError {
  return new ApiError('payload_too_large', `The JSON body is over ${limit.toLocaleString('en-US')} bytes.`);
}
