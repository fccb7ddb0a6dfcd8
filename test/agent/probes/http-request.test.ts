import { describe, expect, it } from 'vitest';
import { hopKey, redirectTarget, redirectedPlan } from '../../../src-main/agent/probes/http-redirect.ts';
import { planRequest, withUrlCredentials, type RequestPlan } from '../../../src-main/agent/probes/http-request.ts';
import { definition } from './definition.ts';

const url = 'http://example.test/';
const headers = (n: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-h${i}`, `v${i}`]));

describe('planRequest', () => {
  it('GET with a default User-Agent', () => {
    expect(planRequest(definition({ url }))).toEqual({
      method: 'GET',
      body: undefined,
      headers: { 'user-agent': 'uptime-agent' },
    });
  });

  it('POST with post_data and a form Content-Type', () => {
    expect(planRequest(definition({ url, post_data: 'a=1' }))).toEqual({
      method: 'POST',
      body: 'a=1',
      headers: { 'user-agent': 'uptime-agent', 'content-type': 'application/x-www-form-urlencoded' },
    });
  });

  it('keeps the user Content-Type and User-Agent whatever their case', () => {
    const plan = planRequest(
      definition({ url, post_data: '{}', headers: { 'Content-Type': 'application/json', 'USER-AGENT': 'mine' } }),
    );
    expect(plan).toEqual({
      method: 'POST',
      body: '{}',
      headers: { 'Content-Type': 'application/json', 'USER-AGENT': 'mine' },
    });
  });

  it('empty post_data stays a GET', () => {
    expect(planRequest(definition({ url, post_data: '' }))).toMatchObject({ method: 'GET', body: undefined });
  });

  it.each([
    { name: '10 headers allowed', fields: { headers: headers(10) }, problem: undefined },
    {
      name: '11 headers refused',
      fields: { headers: headers(11) },
      problem: 'check has 11 headers, at most 10 are allowed',
    },
    {
      name: 'bad header name',
      fields: { headers: { 'bad name': 'v' } },
      problem: 'header name "bad name" is not valid',
    },
    {
      name: 'line break in value, value not shown',
      fields: { headers: { 'X-Token': 'se\r\ncret' } },
      problem: 'header X-Token has a line break or NUL in its value',
    },
    { name: 'Latin-1 value allowed', fields: { headers: { 'X-Name': 'Café\tcrème' } }, problem: undefined },
    {
      name: 'character beyond Latin-1, value not shown',
      fields: { headers: { 'X-Token': 'price €5' } },
      problem: 'header X-Token has a character in its value that HTTP headers cannot carry',
    },
    {
      name: 'control character, value not shown',
      fields: { headers: { 'X-Token': 'a\u0001b' } },
      problem: 'header X-Token has a character in its value that HTTP headers cannot carry',
    },
    {
      name: 'framing header refused',
      fields: { headers: { 'transfer-encoding': 'chunked' } },
      problem: 'header transfer-encoding cannot be set: the agent frames each request itself',
    },
    {
      name: 'Expect refused',
      fields: { headers: { Expect: '100-continue' } },
      problem: 'header Expect cannot be set: the agent frames each request itself',
    },
    { name: 'Connection allowed', fields: { headers: { Connection: 'close' } }, problem: undefined },
  ])('$name', ({ fields, problem }) => {
    const plan = planRequest(definition({ url, ...fields }));
    if (problem === undefined) expect(plan).not.toHaveProperty('problem');
    else expect(plan).toEqual({ problem });
  });
});

describe('withUrlCredentials', () => {
  const plan: RequestPlan = { method: 'GET', body: undefined, headers: {} };
  it.each([
    { name: 'user and password', url: 'http://bob:pw@h/', auth: `Basic ${btoa('bob:pw')}` },
    {
      name: 'percent-encoding decoded',
      url: 'http://b%C3%B6b:p%40ss%3A@h/',
      auth: `Basic ${Buffer.from('böb:p@ss:').toString('base64')}`,
    },
    { name: 'user only', url: 'http://bob@h/', auth: `Basic ${btoa('bob:')}` },
    {
      name: 'invalid percent-encoding taken literally',
      url: 'http://bob:100%25x%ZZ@h/',
      auth: `Basic ${btoa('bob:100%25x%ZZ')}`,
    },
  ])('$name', ({ url: raw, auth }) => {
    const out = withUrlCredentials(plan, new URL(raw));
    expect(out.url.href).toBe('http://h/');
    expect(out.plan.headers.authorization).toBe(auth);
  });

  it('no userinfo: nothing changes', () => {
    const u = new URL('http://h/');
    expect(withUrlCredentials(plan, u)).toEqual({ plan, url: u });
  });

  it('a user Authorization header wins, userinfo still stripped', () => {
    const own: RequestPlan = { ...plan, headers: { Authorization: 'Bearer t' } };
    const out = withUrlCredentials(own, new URL('http://bob:pw@h/'));
    expect(out.plan.headers).toEqual({ Authorization: 'Bearer t' });
    expect(out.url.href).toBe('http://h/');
  });
});

describe('redirectTarget', () => {
  const from = new URL('http://a.test/dir/page?q=1');
  it.each([
    { name: 'not a redirect status', status: 200, location: '/x', out: undefined },
    { name: '3xx without Location', status: 302, location: undefined, out: undefined },
    { name: '304 is not a redirect', status: 304, location: '/x', out: undefined },
    { name: 'relative Location', status: 301, location: 'next', out: { url: 'http://a.test/dir/next' } },
    { name: 'absolute path', status: 302, location: '/root', out: { url: 'http://a.test/root' } },
    { name: 'other origin', status: 307, location: 'https://b.test/x#frag', out: { url: 'https://b.test/x' } },
    { name: 'protocol-relative', status: 308, location: '//c.test/y', out: { url: 'http://c.test/y' } },
    {
      name: 'unsupported scheme',
      status: 302,
      location: 'ftp://files.test/',
      out: { problem: 'redirect to unsupported scheme ftp:' },
    },
    {
      name: 'invalid Location',
      status: 302,
      location: 'http://[nope',
      out: { problem: 'redirect from http://a.test/dir/page?q=1 has an invalid Location' },
    },
  ])('$name', ({ status, location, out }) => {
    const step = redirectTarget(status, location, from);
    if (step === undefined || 'problem' in step) expect(step).toEqual(out);
    else expect({ url: step.url.href }).toEqual(out);
  });
});

describe('redirectedPlan', () => {
  const post: RequestPlan = {
    method: 'POST',
    body: 'a=1',
    headers: {
      'content-type': 'x',
      authorization: 'Basic x',
      Cookie: 'c',
      'X-Api-Key': 'k',
      'X-Auth-Token': 't',
      Accept: 'text/html',
    },
  };
  const a = new URL('http://a.test/1');
  const sameOrigin = new URL('http://a.test/2');
  const otherOrigin = new URL('http://b.test/2');
  const otherScheme = new URL('https://a.test/2');

  it.each([
    { name: '303 turns POST into GET', status: 303, method: 'GET', body: undefined },
    { name: '302 after POST turns into GET', status: 302, method: 'GET', body: undefined },
    { name: '301 after POST turns into GET', status: 301, method: 'GET', body: undefined },
    { name: '307 repeats the POST', status: 307, method: 'POST', body: 'a=1' },
    { name: '308 repeats the POST', status: 308, method: 'POST', body: 'a=1' },
  ])('$name', ({ status, method, body }) => {
    const next = redirectedPlan(post, status, a, sameOrigin);
    expect(next.method).toBe(method);
    expect(next.body).toBe(body);
    expect('content-type' in next.headers).toBe(body !== undefined);
    expect(next.headers.authorization).toBe('Basic x');
  });

  it.each([
    { name: 'other host', to: otherOrigin },
    { name: 'other scheme', to: otherScheme },
  ])('cross-origin ($name) drops credential headers only', ({ to }) => {
    const next = redirectedPlan(post, 307, a, to);
    expect(Object.keys(next.headers).sort()).toEqual(['Accept', 'content-type']);
  });

  it('loop key ignores userinfo and keeps the method', () => {
    const get: RequestPlan = { method: 'GET', body: undefined, headers: {} };
    expect(hopKey(get, new URL('http://u:p@a.test/x'))).toBe(hopKey(get, new URL('http://a.test/x')));
    expect(hopKey(post, a)).not.toBe(hopKey(get, a));
  });
});
