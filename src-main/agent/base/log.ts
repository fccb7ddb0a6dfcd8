// One structured logger for agent, CLI and shell. Secrets are redacted by path so that no log
// line can carry them even when a whole object is logged by mistake.
import { pino, type DestinationStream, type Logger } from 'pino';
import { printable, printableJsonLine } from './printable.ts';

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
  // A proxy URL may carry credentials; messages name it masked (wire/proxy.ts maskProxy).
  'proxyUrl',
  '*.proxyUrl',
  '*.apiKey',
  '*.api_key',
  '*.token',
  '*.password',
  '*.authorization',
  '*.headers',
  '*.post_data',
  '*.match_string',
];

/** The levels UPTIME_AGENT_LOG_LEVEL may name (pino's, plus silent). */
const knownLevels: ReadonlySet<string> = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']);
const fallbackLevel = 'info';

/**
 * The level asked for, or info when it is no level at all: a typo in an environment variable
 * must not stop every command (pino throws on an unknown level), it costs one warning.
 */
export function logLevel(asked: string | undefined = process.env.UPTIME_AGENT_LOG_LEVEL): {
  level: string;
  unknown?: string;
} {
  const wanted = asked?.trim().toLowerCase() ?? '';
  if (wanted === '') return { level: fallbackLevel };
  return knownLevels.has(wanted) ? { level: wanted } : { level: fallbackLevel, unknown: asked };
}

export function createLogger(
  destination: DestinationStream = stderrDestination(),
  asked = process.env.UPTIME_AGENT_LOG_LEVEL,
): Logger {
  const { level, unknown } = logLevel(asked);
  const log = pino(
    {
      name: 'uptime-agent',
      level,
      redact: { paths: redactPaths, censor: '[redacted]' },
      // Text from check targets may carry terminal escapes; JSON leaves DEL and C1 controls raw.
      hooks: { streamWrite: printableJsonLine },
    },
    destination,
  );
  if (unknown !== undefined)
    log.warn(
      `UPTIME_AGENT_LOG_LEVEL ${JSON.stringify(unknown)} is not a log level (trace, debug, info, warn, error, fatal, silent); logging at ${fallbackLevel}`,
    );
  return log;
}

/**
 * stderr of the headless command: readable lines when a person watches a terminal, JSON lines
 * otherwise (services, CI, log collectors). The formatter only sees what pino serialised, so
 * redaction has already happened.
 */
export function stderrDestination(terminal = process.stderr.isTTY): DestinationStream {
  const stderr = pino.destination({ dest: 2, sync: true });
  return terminal ? { write: (line: string) => stderr.write(humanLine(line)) } : stderr;
}

const levelNames: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** pino's own fields: shown as time and level, or not worth a person's attention. */
const envelope = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg']);

/** One JSON log line as `HH:MM:SS.mmm LEVEL message key=value …` (local time). */
export function humanLine(json: string): string {
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  if (typeof entry !== 'object' || entry === null) return `${json.trimEnd()}\n`;
  const fields = Object.entries(entry);
  const field = (key: string): unknown => fields.find(([k]) => k === key)?.[1];
  const level = field('level');
  const parts = [
    clock(field('time')),
    (typeof level === 'number' ? (levelNames[level] ?? String(level)) : 'LOG').padEnd(5),
    // Parsed back from JSON, target text is raw again: escapes are shown, never sent to the terminal.
    typeof field('msg') === 'string' ? printable(String(field('msg'))) : '',
    ...fields.filter(([key]) => !envelope.has(key)).map(([key, value]) => `${key}=${valueText(value)}`),
  ];
  return `${parts.filter((part) => part !== '').join(' ')}\n`;
}

function clock(time: unknown): string {
  if (typeof time !== 'number') return '';
  const at = new Date(time);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}.${String(at.getMilliseconds()).padStart(3, '0')}`;
}

/** Plain words stay bare; anything with spaces or quotes is quoted; an error shows its message. */
function valueText(value: unknown): string {
  if (typeof value === 'string')
    return /^[^\s"=]+$/.test(value) ? printable(value) : printableJsonLine(JSON.stringify(value));
  if (typeof value === 'object' && value !== null && 'message' in value && typeof value.message === 'string')
    return printableJsonLine(JSON.stringify(value.message));
  return printableJsonLine(JSON.stringify(value));
}

/** A logger that writes nothing, for tests and callers that do not care. */
export const silentLogger: Logger = pino({ level: 'silent' });
