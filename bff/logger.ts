import { type DestinationStream, type Logger, pino } from 'pino';

/** Any secret key, wherever it appears in a line. */
const SECRET = /mk_[A-Za-z0-9_-]+/g;

/** Removes secret keys from a log line; exported for the leak tests. */
export function scrubSecrets(line: string): string {
  return line.replace(SECRET, 'mk_[redacted]');
}

/**
 * pino, with `Authorization` headers redacted and any `mk_…` substring scrubbed from every line, whatever field it
 * hides in (an error message, a URL, a nested object).
 */
export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      name: 'bff',
      level: options.level ?? 'info',
      redact: {
        paths: [
          'req.headers.authorization',
          'headers.authorization',
          '*.headers.authorization',
          'authorization',
        ],
        censor: '[redacted]',
      },
      hooks: {
        streamWrite: scrubSecrets,
      },
    },
    options.destination,
  );
}

/** What a log line (or a derived error) says of a failure: its message, never its stack or fields. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type { Logger };
