// A private check against a target that echoes the request back (as many error pages do), in
// plain, URL-encoded, base64 and upper-case forms, in its body, its status line and a redirect's
// Location: nothing of the definition, in any of these forms, reaches the server (issue 27).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckDefinition } from '../../../../src-main/agent/wire/schemas.ts';
import { enrolledAgent, type Harness } from '../../../support/agent-harness.ts';
import { runPrivateChecks } from './run-private-checks.ts';
import { startHttpTarget } from '../../../targets/index.ts';

type PrivateCheck = CheckDefinition & { guid: string };

/** The request as the target saw it: method, path and query, every header, the body. */
function echoOf(req: IncomingMessage, body: Buffer): string {
  const headers: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  return `${req.method ?? ''} ${req.url ?? ''} ${headers.join(' ')} ${body.toString('utf8')}`;
}

/** The echo in every form: plain, URL-encoded, base64, upper case (and their mixes). */
function forms(echo: string): string[] {
  const b64 = Buffer.from(echo).toString('base64');
  return [echo, encodeURIComponent(echo), b64, echo.toUpperCase(), encodeURIComponent(echo).toUpperCase()];
}

/** A status line may hold only visible ASCII: every form but the plain one fits once cleaned. */
const statusText = (echo: string): string =>
  forms(echo)
    .slice(1)
    .join(' ')
    .replace(/[^\x20-\x7e]/g, '.')
    .slice(0, 4000);

/** The base64 characters of `value` as they read inside a longer base64 text, at each alignment. */
function base64Inside(value: string): string[] {
  const bytes = Buffer.from(value);
  return [0, 1, 2].map((k) =>
    Buffer.concat([Buffer.alloc(k), bytes])
      .toString('base64')
      .slice(Math.ceil((k * 8) / 6), Math.floor(((k + bytes.length) * 8) / 6)),
  );
}

/** Every value of a definition worth looking for, with the basic-auth pair as sent on the wire. */
function valuesOf(def: PrivateCheck): string[] {
  const url = new URL(def.url);
  return [
    def.url,
    def.match_string,
    def.post_data ?? '',
    ...Object.values(def.headers ?? {}),
    // Header names of its own (Authorization and Cookie are in every agent's requests).
    ...Object.keys(def.headers ?? {}).filter((name) => name.startsWith('X-')),
    url.host,
    url.pathname,
    url.search.slice(1),
    ...url.searchParams.values(),
    url.username,
    url.password,
    `${url.username}:${url.password}`,
  ].filter((v) => v.length >= 6);
}

describe('a private check against an echoing target', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('sends no form of any value of the definition: plain, URL-encoded, base64 or other case', async () => {
    const echoBody = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(forms(echoOf(req, body)).join('\n'));
    };
    const echoStatus = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
      res.writeHead(500, statusText(echoOf(req, body)), { 'content-type': 'text/plain' });
      res.end(forms(echoOf(req, body)).join('\n'));
    };
    const echoRedirect = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
      const echo = echoOf(req, body);
      const location = `/moved/${encodeURIComponent(echo.toUpperCase())}?b=${encodeURIComponent(Buffer.from(echo).toString('base64'))}`;
      res.writeHead(302, { location: location.slice(0, 6000) });
      res.end(forms(echo).join('\n'));
    };
    const target = await startHttpTarget({
      '/secret-body-path-4711': echoBody,
      '/secret-status-path-4712': echoStatus,
      '/secret-redirect-path-4713': echoRedirect,
    });
    const host = `127.0.0.1:${target.port}`;
    const checks: PrivateCheck[] = [
      {
        guid: 'priv-echo-body',
        url: `http://admin-user:pw-hunter2-xyz@${host}/secret-body-path-4711?token=tok-998877-abc`,
        match_string: 'needle-never-found',
        headers: { 'X-Secret-Header': 'header-secret-123', Cookie: 'session=cookie-secret-777' },
        post_data: 'post-secret-456=yes please',
      },
      {
        guid: 'priv-echo-status',
        url: `http://ops-user:pw-status-991@${host}/secret-status-path-4712?q=query-secret-55`,
        match_string: '',
        headers: { Authorization: 'Bearer bearer-secret-8080' },
      },
      {
        guid: 'priv-echo-redirect',
        url: `http://${host}/secret-redirect-path-4713?key=redirect-key-321`,
        match_string: 'other-needle-42',
        headers: { 'X-Api-Key': 'api-key-secret-606' },
      },
    ];
    h = await enrolledAgent();
    await runPrivateChecks(h, checks, 5000);
    // The target did echo the definition back: there was something to leak.
    expect(target.requests.some((r) => r.path.startsWith('/moved/'))).toBe(true);
    const sent = h.server
      .requests()
      .map((r) => `${r.path}?${r.query} ${JSON.stringify(r.headers)} ${r.body}`)
      .join('\n');
    // JSON escapes and URL encoding of the upload itself must not hide a value either.
    const everything = [
      sent,
      decodeURIComponent(sent.replace(/%(?![0-9a-f]{2})/gi, '%25')),
      JSON.parse(JSON.stringify(sent)) as string,
    ]
      .join('\n')
      .replace(/\\\//g, '/');
    const folded = everything.toLowerCase();
    const leaks: string[] = [];
    for (const value of checks.flatMap(valuesOf)) {
      for (const form of [value, encodeURIComponent(value)])
        if (folded.includes(form.toLowerCase())) leaks.push(`${value} as ${form}`);
      for (const form of [Buffer.from(value).toString('base64'), ...base64Inside(value)])
        if (everything.includes(form)) leaks.push(`${value} as base64 ${form}`);
    }
    expect(leaks).toEqual([]);
    // Locally, the user still sees the real reason of the failure.
    expect(h.agent.checkHistory('priv-echo-body', 1)[0]?.error).toContain('needle-never-found');
    await target.close();
  });
});
