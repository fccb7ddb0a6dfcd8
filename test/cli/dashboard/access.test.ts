import { describe, expect, it } from 'vitest';
import { hostAllowed, newAccessToken, originAllowed, tokenMatches } from '../../../src-main/cli/dashboard/access.ts';
import { fileInside } from '../../../src-main/cli/dashboard/static-files.ts';

describe('dashboard access rules', () => {
  it('makes unguessable, URL-safe tokens', () => {
    const a = newAccessToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newAccessToken()).not.toBe(a);
  });

  it.each([
    { name: 'the same token', given: 'abc', ok: true },
    { name: 'another token', given: 'abd', ok: false },
    { name: 'a prefix', given: 'ab', ok: false },
    { name: 'nothing', given: undefined, ok: false },
    { name: 'an empty header', given: '', ok: false },
  ])('token: $name', ({ given, ok }) => {
    expect(tokenMatches(given, 'abc')).toBe(ok);
  });

  it.each([
    { host: '127.0.0.1:4000', ok: true },
    { host: 'localhost:4000', ok: true },
    { host: 'LOCALHOST:4000', ok: true },
    { host: '127.0.0.1:4001', ok: false },
    { host: 'evil.example:4000', ok: false },
    { host: 'evil.example', ok: false },
    { host: undefined, ok: false },
  ])('Host $host', ({ host, ok }) => {
    expect(hostAllowed(host, 4000)).toBe(ok);
  });

  it.each([
    { origin: undefined, ok: true },
    { origin: 'http://127.0.0.1:4000', ok: true },
    { origin: 'http://localhost:4000', ok: true },
    { origin: 'https://127.0.0.1:4000', ok: false },
    { origin: 'http://evil.example', ok: false },
    { origin: 'null', ok: false },
  ])('Origin $origin', ({ origin, ok }) => {
    expect(originAllowed(origin, 4000)).toBe(ok);
  });

  it.each([
    { path: '/', file: '/srv/r/index.html' },
    { path: '/assets/app.js', file: '/srv/r/assets/app.js' },
    // Anything that climbs out is refused, encoded or not (the URL parser already folds literal dots).
    { path: '/../package.json', file: undefined },
    { path: '/assets/..%2f..%2fetc/passwd', file: undefined },
    { path: '/a%00b', file: undefined },
    { path: '/%E0%A4%A', file: undefined },
  ])('serves $path only from inside the renderer folder', ({ path, file }) => {
    expect(fileInside('/srv/r', path)).toBe(file);
  });
});
