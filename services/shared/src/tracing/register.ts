/**
 * Turns tracing on for a process when the OTEL_* variables ask for it (tracingEnabled), before its entry point
 * loads the modules the instrumentations patch:
 *   NODE_OPTIONS="--require /app/services/shared/dist/tracing/register.js" node services/content/dist/main.js
 * Without those variables it loads nothing more than this check.
 */
import { basename, dirname } from 'node:path';
import { tracingEnabled } from './enabled';

if (tracingEnabled()) {
  // Loaded only when on: the SDK is large.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startTracing } = require('./tracing') as typeof import('./tracing');
  const sdk = startTracing({ serviceName: `cms-${serviceOfEntry(process.argv[1] ?? '')}` });
  // Spans still buffered go out before a graceful exit.
  process.once('beforeExit', () => void sdk.shutdown());
}

/** `.../services/content/dist/main.js` → `content`; `.../gateway/dist/main.js` → `gateway`. */
function serviceOfEntry(entry: string): string {
  const name = basename(dirname(dirname(entry)));
  return /^[\w-]{1,40}$/.test(name) ? name : 'process';
}
