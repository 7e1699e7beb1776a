import pino from 'pino';

export type Logger = pino.Logger;

/**
 * One logger per process. Secrets are redacted wherever they appear in a
 * logged object; request bodies are never logged.
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    // An unknown level is reported by the configuration check that follows, not by a crash here.
    level: Object.prototype.hasOwnProperty.call(pino.levels.values, level) || level === 'silent' ? level : 'info',
    base: { service, pid: process.pid },
    redact: {
      paths: [
        'password',
        '*.password',
        'authorization',
        '*.authorization',
        'headers.authorization',
        'token',
        '*.token',
        'secret',
        '*.secret',
      ],
      censor: '[redacted]',
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
