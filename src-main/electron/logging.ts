// The shell's log: the agent's pino logger (same redact paths) writing to a size-rotated file in
// the OS logs folder, plus stderr in development. Rotation is done here, synchronously, rather
// than by a transport: pino transports run in a worker thread loaded from a file path, which
// does not work from inside app.asar.
import { join } from 'node:path';
import { pino, type DestinationStream } from 'pino';
import { createLogger, logLevel, type Logger } from '../agent/base/log.ts';
import { shellDefaults } from './shell-defaults.ts';
const { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } = process.getBuiltinModule('node:fs');

export interface RotatingFileOptions {
  dir: string;
  /** e.g. "main": files main.log (current), main.1.log ... (older). */
  name: string;
  maxBytes: number;
  /** Files kept, the current one included. */
  maxFiles: number;
}

export const logFileName = (name: string, index: number): string =>
  index === 0 ? `${name}.log` : `${name}.${index}.log`;

/** A pino destination that starts a new file once the current one would pass maxBytes. */
export function rotatingFile(options: RotatingFileOptions): DestinationStream & { close(): void } {
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  const path = (index: number): string => join(options.dir, logFileName(options.name, index));
  let fd = openSync(path(0), 'a', 0o600);
  let size = statSync(path(0)).size;

  function rotate(): void {
    closeSync(fd);
    rmSync(path(options.maxFiles - 1), { force: true });
    for (let index = options.maxFiles - 2; index >= 0; index--) {
      try {
        renameSync(path(index), path(index + 1));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    fd = openSync(path(0), 'a', 0o600);
    size = 0;
  }

  return {
    write(line: string) {
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > options.maxBytes) rotate();
      writeSync(fd, line);
      size += bytes;
    },
    close() {
      closeSync(fd);
    },
  };
}

export interface ShellLogOptions {
  logsDir: string;
  /** Development (not packaged): also write to stderr. */
  development: boolean;
  level?: string;
}

export function createShellLogger(options: ShellLogOptions): { log: Logger; file: string; close(): void } {
  const asked = options.level ?? process.env.UPTIME_AGENT_LOG_LEVEL;
  const { level } = logLevel(asked);
  const file = rotatingFile({
    dir: options.logsDir,
    name: 'main',
    maxBytes: shellDefaults.logFileBytes,
    maxFiles: shellDefaults.logFiles,
  });
  // multistream filters per stream (default "info"): give each the logger's level.
  const destination: DestinationStream = options.development
    ? pino.multistream([
        { level, stream: file },
        { level, stream: process.stderr },
      ])
    : file;
  return {
    log: createLogger(destination, asked),
    file: join(options.logsDir, logFileName('main', 0)),
    close: () => file.close(),
  };
}
