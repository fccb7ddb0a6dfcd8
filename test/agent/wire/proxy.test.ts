import { describe, expect, it } from 'vitest';
import { maskProxy, proxyFor, serverReachTarget } from '../../../src-main/agent/wire/proxy.ts';

describe('which proxy the server traffic takes', () => {
  const chosen = (target: string, explicit: string | undefined, env: NodeJS.ProcessEnv) => {
    const outcome = proxyFor(target, explicit, env);
    if (!outcome.ok) throw new Error(outcome.message);
    return outcome.proxy === undefined ? 'direct' : `${outcome.proxy.url.host} (${outcome.proxy.source})`;
  };

  it.each([
    { name: 'nothing set', target: 'https://up.example', explicit: undefined, env: {}, want: 'direct' },
    {
      name: 'HTTPS_PROXY for https',
      target: 'https://up.example',
      explicit: undefined,
      env: { HTTPS_PROXY: 'http://a:1' },
      want: 'a:1 (HTTPS_PROXY)',
    },
    {
      name: 'lowercase first',
      target: 'https://up.example',
      explicit: undefined,
      env: { HTTPS_PROXY: 'http://a:1', https_proxy: 'http://b:2' },
      want: 'b:2 (https_proxy)',
    },
    {
      name: 'https falls back to HTTP_PROXY',
      target: 'https://up.example',
      explicit: undefined,
      env: { HTTP_PROXY: 'http://c:3' },
      want: 'c:3 (HTTP_PROXY)',
    },
    {
      name: 'http ignores HTTPS_PROXY',
      target: 'http://127.0.0.1:80',
      explicit: undefined,
      env: { HTTPS_PROXY: 'http://a:1' },
      want: 'direct',
    },
    {
      name: 'a bare host:port',
      target: 'https://up.example',
      explicit: undefined,
      env: { HTTPS_PROXY: 'proxy.lan:3128' },
      want: 'proxy.lan:3128 (HTTPS_PROXY)',
    },
    {
      name: 'the setting wins',
      target: 'https://up.example',
      explicit: 'http://s:9',
      env: { HTTPS_PROXY: 'http://a:1' },
      want: 's:9 (the proxy setting)',
    },
    {
      name: 'NO_PROXY exempts',
      target: 'https://up.example',
      explicit: 'http://s:9',
      env: { NO_PROXY: '.example' },
      want: 'direct',
    },
    {
      name: 'an empty variable is unset',
      target: 'https://up.example',
      explicit: '',
      env: { https_proxy: '', HTTPS_PROXY: 'http://a:1' },
      want: 'a:1 (HTTPS_PROXY)',
    },
  ])('$name', ({ target, explicit, env, want }) => expect(chosen(target, explicit, env)).toBe(want));

  it('masks credentials and refuses what it cannot use without quoting a password', () => {
    expect(maskProxy(new URL('https://user:pa%20ss@proxy:8443'))).toBe('https://user:***@proxy:8443');
    expect(maskProxy(new URL('http://tokenonly@proxy:1'))).toBe('http://***@proxy:1');
    const bad = proxyFor('https://up.example', 'socks5://u:secret@p:1080', {});
    expect(bad).toMatchObject({ ok: false });
    if (!bad.ok) expect(bad.message).not.toContain('secret');
    const malformed = proxyFor('https://up.example', 'http://u:secret@[bad', {});
    if (!malformed.ok) expect(malformed.message).not.toContain('secret');
    expect(proxyFor('https://up.example', 'http://p:1/path', {}).ok).toBe(false);
  });

  it('makes the proxy the connectivity target when there is one', () => {
    expect(serverReachTarget('https://up.example', undefined)).toEqual({ host: 'up.example', port: 443 });
    expect(serverReachTarget('https://up.example', new URL('http://proxy.lan:3128'))).toEqual({
      host: 'proxy.lan',
      port: 3128,
    });
    expect(serverReachTarget('http://[::1]:8080', undefined)).toEqual({ host: '::1', port: 8080 });
  });
});
