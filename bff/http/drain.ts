import type { IncomingMessage } from 'node:http';

/**
 * Reads and discards a request's body after an early answer was written (a 401 sent before the body is parsed), so
 * the answer's end and the close that follows it come once the client has sent everything: closing on a body still coming makes the
 * client's kernel receive a reset for the bytes it keeps sending, and a client that sends its whole body before
 * reading got EPIPE instead of the 401 (issue 38: 1 run in 4, under load). Bounded: a body declared or sent over
 * `maxBytes`, or still coming after `maxMs`, is not waited for (resolves false), so an unauthenticated sender costs at
 * most that much reading; nothing of it is parsed or kept.
 */
export function discardBody(
  req: IncomingMessage,
  options: { maxBytes: number; maxMs: number },
): Promise<boolean> {
  if (Number(req.headers['content-length'] ?? 0) > options.maxBytes) return Promise.resolve(false);
  if (req.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    let seen = 0;
    const done = (whole: boolean) => {
      clearTimeout(timer);
      req.off('data', count);
      req.off('end', ended);
      req.off('close', closed);
      if (!whole) req.pause();
      resolve(whole);
    };
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > options.maxBytes) done(false);
    };
    const ended = () => done(true);
    const closed = () => done(false);
    const timer = setTimeout(() => done(false), options.maxMs);
    req.on('data', count);
    req.once('end', ended);
    req.once('close', closed);
  });
}
