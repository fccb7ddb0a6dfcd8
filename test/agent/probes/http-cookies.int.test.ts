// Issue 24 §7: each http(s) run has a fresh cookie jar. A consent or session gate that sets a
// cookie and redirects to itself passes (it was a "redirect loop"); cookies set during the run go
// back on its later hops to the host that set them, never to another host, never to a later run.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import type { ProbeContext } from '../../../src-main/agent/probes/types.ts';
import { startHttpTarget, type HttpTarget } from '../../targets/index.ts';
import { definition } from './definition.ts';

/** Sets `consent=yes` and sends the visitor back to the same URL until it comes with the cookie. */
function gate(req: IncomingMessage, res: ServerResponse): void {
  if (/(^|; )consent=yes(;|$)/.test(req.headers.cookie ?? '')) {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('welcome in');
    return;
  }
  res.writeHead(302, { location: req.url ?? '/', 'set-cookie': 'consent=yes; Path=/; HttpOnly' }).end();
}

let site: HttpTarget;
let other: HttpTarget;
beforeAll(async () => {
  other = await startHttpTarget();
  site = await startHttpTarget({
    '/gate': gate,
    '/login': (_req, res) => {
      res
        .writeHead(302, { location: '/echo', 'set-cookie': ['session=s3cret; Path=/', 'theme=dark; Path=/nowhere'] })
        .end();
    },
    '/away': (_req, res) => {
      res
        .writeHead(302, { location: `http://other.test:${other.port}/echo`, 'set-cookie': 'session=s3cret; Path=/' })
        .end();
    },
  });
});
afterAll(async () => {
  await Promise.all([site.close(), other.close()]);
});

// Two names for loopback, so "another host" is a real other origin without leaving 127.0.0.1.
const ctx: ProbeContext = {
  resolve: (hostname) =>
    hostname.endsWith('.test')
      ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
      : Promise.reject(Object.assign(new Error('no such name'), { code: 'ENOTFOUND' })),
};
const url = (path: string): string => `http://site.test:${site.port}${path}`;
const cookiesSentTo = (target: HttpTarget, path: string): (string | undefined)[] =>
  target.requests.filter((r) => r.path === path).map((r) => r.headers.cookie);

describe('cookies within one run', () => {
  it('a gate that sets a cookie and redirects to itself passes', async () => {
    const out = await runProbe(definition({ url: url('/gate'), match_string: 'welcome' }), ctx);
    expect(out).toMatchObject({ success: true, httpStatus: 200, error: '' });
  });

  it('a cookie set on one hop is sent on the next hop to the same host, within its path', async () => {
    const out = await runProbe(definition({ url: url('/login') }), ctx);
    expect(out).toMatchObject({ success: true, httpStatus: 200 });
    expect(cookiesSentTo(site, '/echo').at(-1)).toBe('session=s3cret');
  });

  it('a cookie is never sent to another host the run is redirected to', async () => {
    const before = other.requests.length;
    const out = await runProbe(definition({ url: url('/away') }), ctx);
    expect(out).toMatchObject({ success: true, httpStatus: 200 });
    expect(other.requests.slice(before)).toHaveLength(1);
    expect(other.requests.at(-1)?.headers.cookie).toBeUndefined();
  });

  it('a cookie is never kept for the next run', async () => {
    const before = cookiesSentTo(site, '/gate').length;
    await runProbe(definition({ url: url('/gate'), match_string: 'welcome' }), ctx);
    await runProbe(definition({ url: url('/gate'), match_string: 'welcome' }), ctx);
    expect(cookiesSentTo(site, '/gate').slice(before)).toEqual([undefined, 'consent=yes', undefined, 'consent=yes']);
  });

  it('a gate whose cookie never sticks is still a redirect loop', async () => {
    site.route('/stuck', (_req, res) => {
      res.writeHead(302, { location: '/stuck', 'set-cookie': 'consent=yes; Path=/; Secure' }).end();
    });
    const out = await runProbe(definition({ url: url('/stuck') }), ctx);
    expect(out).toMatchObject({ success: false, decidedBy: 'redirect' });
    expect(out.error).toMatch(/^redirect loop at /);
  });
});
