import type { IncomingMessage } from 'node:http';

/**
 * Reads and discards what is left of a request's body after an early answer (a 401 sent before the body is read),
 * then closes the connection once both the answer and the body are done. Closing at once instead — with the body
 * still coming — makes the client's kernel receive a reset for the bytes it keeps sending, and a client that sends
 * its whole body before reading gets EPIPE instead of the 401 (issue 38: 1 run in 4, under load). Bounded: a body
 * over `maxBytes` (or still coming after `maxMs`) is cut, so an unauthenticated sender costs at most that much
 * reading, and nothing of it is parsed.
 */
export function drainThenClose(
  req: IncomingMessage,
  answered: Promise<void>,
  options: { maxBytes: number; maxMs: number },
): void {
  const { socket } = req;
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > options.maxBytes) {
    void answered.then(() => socket.destroy());
    return;
  }
  let seen = 0;
  const timer = setTimeout(() => socket.destroy(), options.maxMs);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > options.maxBytes) socket.destroy();
  });
  const bodyDone = new Promise<void>((resolve) => {
    req.on('end', resolve);
    req.on('close', resolve);
  });
  void Promise.all([answered, bodyDone]).then(() => {
    clearTimeout(timer);
    socket.end();
  });
}
