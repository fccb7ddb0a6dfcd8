// Command line: node test/reference-server/main.ts [--port P] [--db FILE] [--seed demo|none]
//   [--print-json]. Binds 127.0.0.1 only, seeds, prints the base URL and an enrollment token on
// stdout, and runs until SIGINT or SIGTERM. Diagnostics go to stderr so stdout stays parseable.
import { parseArgs } from 'node:util';
import { startReferenceServer } from './index.ts';
import { seed } from './seed.ts';

const usage = `usage: node test/reference-server/main.ts [--port P] [--db FILE] [--seed demo|none] [--print-json]
  --port P       port on 127.0.0.1 (default: any free port)
  --db FILE      SQLite file kept across runs (default: in memory)
  --seed KIND    demo: an organisation with sample checks (default); none: the organisation only
  --print-json   print {"url","token","platformToken","orgId"} as one JSON line instead of text`;

function fail(message: string): never {
  process.stderr.write(`reference-server: ${message}\n${usage}\n`);
  process.exit(2);
}

function options() {
  try {
    const { values } = parseArgs({
      options: {
        port: { type: 'string' },
        db: { type: 'string' },
        seed: { type: 'string', default: 'demo' },
        'print-json': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0..65535, got ${values.port ?? ''}`);
    if (values.seed !== 'demo' && values.seed !== 'none') fail(`--seed must be demo or none, got ${values.seed}`);
    return { port, db: values.db, seed: values.seed, json: values['print-json'] };
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}

const opts = options();
const server = await startReferenceServer({ port: opts.port, dbPath: opts.db, host: '127.0.0.1' });
const seeded = seed(server, opts.seed === 'none' ? { checks: [] } : {});
if (opts.json) {
  const line = { url: server.url, token: seeded.token, platformToken: seeded.platformToken, orgId: seeded.orgId };
  process.stdout.write(`${JSON.stringify(line)}\n`);
} else {
  process.stdout.write(
    `server: ${server.url}\ntoken: ${seeded.token}\nplatform-token: ${seeded.platformToken}\norganisation: ${seeded.orgId}\n`,
  );
}
process.stderr.write(
  `reference-server: listening on ${server.url} (${opts.db ?? 'in-memory database'}), ` +
    `${seeded.checks.length} checks seeded; stop with Ctrl-C\n`,
);

let stopping = false;
const shutdown = (signal: string) => {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`reference-server: ${signal}, stopping\n`);
  server.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`reference-server: close failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
