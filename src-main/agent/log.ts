// One structured logger for agent, CLI and shell. Secrets are redacted by path so that no log
// line can carry them even when a whole object is logged by mistake.
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const redactPaths = [
  'apiKey',
  'api_key',
  'token',
  'password',
  'authorization',
  'headers',
  'post_data',
  'match_string',
  '*.apiKey',
  '*.api_key',
  '*.token',
  '*.password',
  '*.authorization',
  '*.headers',
  '*.post_data',
  '*.match_string',
];

export function createLogger(destination?: DestinationStream, level = process.env.UPTIME_AGENT_LOG_LEVEL ?? 'info'): Logger {
  return pino(
    { name: 'uptime-agent', level, redact: { paths: redactPaths, censor: '[redacted]' } },
    destination ?? pino.destination({ dest: 2, sync: true }),
  );
}

/** A logger that writes nothing, for tests and callers that do not care. */
export const silentLogger: Logger = pino({ level: 'silent' });
