import { describe, expect, it } from 'vitest';
import {
  parsePrivateDefinitions,
  type DefinitionProblem,
} from '../../../../src-main/agent/checks/private-definitions/index.ts';

// Every entry below carries these; no message may ever repeat one of them.
const secrets = ['S3cretPass', 'HdrSecretValue', 'PostSecretBody', 'MatchSecretText', 'NameSecret'];

const base = {
  url: 'https://user:S3cretPass@example.com/health',
  match_string: 'MatchSecretText',
  post_data: 'PostSecretBody',
  headers: { 'X-Token': 'HdrSecretValue' },
};

const other = { guid: 'other-guid', url: 'tcp://db.internal:5432' };

function parse(checks: unknown[]) {
  return parsePrivateDefinitions(JSON.stringify({ checks }));
}

function expectNoSecrets(texts: readonly string[]) {
  for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
}

const messages = (problems: readonly DefinitionProblem[]) => problems.map((p) => p.message);

describe('parsePrivateDefinitions: valid files', () => {
  it('loads every field with its wire name and leaves absent fields absent', () => {
    const full = {
      guid: 'g-full',
      ...base,
      timeout_sec: 30,
      match_mode: 'not_contains',
      disable_redirects: true,
      status_code_op: 'lt',
      status_code_value: 300,
      max_response_time_ms: 1500,
      insecure_skip_verify: false,
      invert_result: true,
      cert_expiry_warn_days: 14,
    };
    const parsed = parse([full, other]);
    expect(parsed.fileError).toBeUndefined();
    expect(parsed.problems).toEqual([]);
    const { guid: _guid, ...definition } = full;
    expect(parsed.entries.get('g-full')).toEqual(definition);
    expect(parsed.entries.get('other-guid')).toStrictEqual({ url: 'tcp://db.internal:5432', match_string: '' });
  });

  it.each([
    {
      name: 'match_string absent',
      entry: { guid: 'g', url: 'http://a.test' },
      definition: { url: 'http://a.test', match_string: '' },
    },
    {
      name: 'match_string null',
      entry: { guid: 'g', url: 'http://a.test', match_string: null },
      definition: { url: 'http://a.test', match_string: '' },
    },
    {
      name: 'optional fields null',
      entry: { guid: 'g', url: 'tls://a.test:443', timeout_sec: null, headers: null },
      definition: { url: 'tls://a.test:443', match_string: '' },
    },
    {
      name: 'ten headers',
      entry: { guid: 'g', url: 'http://a.test', headers: tenHeaders(10) },
      definition: { url: 'http://a.test', match_string: '', headers: tenHeaders(10) },
    },
    {
      name: 'timeout 0 and 60 bounds',
      entry: { guid: 'g', url: 'http://a.test', timeout_sec: 60, max_response_time_ms: 0 },
      definition: { url: 'http://a.test', match_string: '', timeout_sec: 60, max_response_time_ms: 0 },
    },
  ])('accepts: $name', ({ entry, definition }) => {
    const parsed = parse([entry]);
    expect(parsed.problems).toEqual([]);
    expect(parsed.entries.get('g')).toStrictEqual(definition);
  });

  it('accepts an empty checks array and a byte order mark', () => {
    expect(parsePrivateDefinitions('\uFEFF{ "checks": [] }')).toEqual({ entries: new Map(), problems: [] });
  });
});

describe('parsePrivateDefinitions: invalid entries are left out, the others load', () => {
  it.each([
    { name: 'empty url', patch: { url: '' }, field: 'url', says: 'url is empty' },
    { name: 'url that is not a URL', patch: { url: 'not a url' }, field: 'url', says: 'url is not a valid URL' },
    {
      name: 'ftp url with a password',
      patch: { url: 'ftp://u:S3cretPass@host/x' },
      field: 'url',
      says: 'url must start with http://, https://, tcp:// or tls://',
    },
    {
      name: 'scheme-less user:password',
      patch: { url: 'NameSecret:S3cretPass@host' },
      field: 'url',
      says: 'url must start with',
    },
    { name: 'tcp without port', patch: { url: 'tcp://db.internal' }, field: 'url', says: 'url needs a port' },
    { name: 'tcp with port 0', patch: { url: 'tcp://db.internal:0' }, field: 'url', says: 'url needs a port' },
    { name: 'tls without host', patch: { url: 'tls:///x' }, field: 'url', says: 'url needs a host' },
    { name: 'url not a string', patch: { url: 42 }, field: 'url', says: 'url must be a string' },
    { name: 'url missing', patch: { url: undefined }, field: 'url', says: 'url must be a string' },
    {
      name: 'eleven headers',
      patch: { headers: tenHeaders(11) },
      field: 'headers',
      says: 'has 11 entries; at most 10',
    },
    {
      name: 'header value not a string',
      patch: { headers: { 'X-Token': 5 } },
      field: 'headers',
      says: 'headers must be an object of header names to string values',
    },
    {
      name: 'headers an array',
      patch: { headers: ['HdrSecretValue'] },
      field: 'headers',
      says: 'headers must be an object',
    },
    {
      name: 'header line pasted as name',
      patch: { headers: { 'Authorization: Bearer NameSecret': '' } },
      field: 'headers',
      says: 'not a valid HTTP header name',
    },
    {
      name: 'header value with a line break',
      patch: { headers: { 'X-Token': 'HdrSecretValue\r\nX: y' } },
      field: 'headers',
      says: '"X-Token" has a value with a line break',
    },
    // The probe refuses these on every run; the file reports them once, when it loads (issue 23).
    {
      name: 'a framing header the agent sets itself',
      patch: { headers: { 'Transfer-Encoding': 'chunked' } },
      field: 'headers',
      says: '"Transfer-Encoding" cannot be set: the agent frames each request itself',
    },
    {
      name: 'a header value beyond Latin-1',
      patch: { headers: { 'X-Token': 'HdrSecretValue\u2713' } },
      field: 'headers',
      says: '"X-Token" has a character in its value that HTTP headers cannot carry',
    },
    {
      name: 'a header value with a control character',
      patch: { headers: { 'X-Token': 'HdrSecretValue\u0007' } },
      field: 'headers',
      says: '"X-Token" has a character in its value that HTTP headers cannot carry',
    },
    {
      name: 'timeout above 60',
      patch: { timeout_sec: 61 },
      field: 'timeout_sec',
      says: 'timeout_sec must be a whole number of seconds from 0 to 60',
    },
    { name: 'negative timeout', patch: { timeout_sec: -1 }, field: 'timeout_sec', says: 'from 0 to 60' },
    { name: 'fractional timeout', patch: { timeout_sec: 1.5 }, field: 'timeout_sec', says: 'from 0 to 60' },
    { name: 'timeout as text', patch: { timeout_sec: '10' }, field: 'timeout_sec', says: 'from 0 to 60' },
    {
      name: 'unknown match_mode',
      patch: { match_mode: 'regex' },
      field: 'match_mode',
      says: 'match_mode must be "contains" or "not_contains"',
    },
    {
      name: 'unknown status_code_op',
      patch: { status_code_op: 'ne', status_code_value: 200 },
      field: 'status_code_op',
      says: 'status_code_op must be "eq", "lt" or "gt"',
    },
    {
      name: 'status_code_op without value',
      patch: { status_code_op: 'eq' },
      field: 'status_code_value',
      says: 'status_code_value is required when status_code_op is set',
    },
    {
      name: 'status_code_value out of range',
      patch: { status_code_op: 'eq', status_code_value: 600 },
      field: 'status_code_value',
      says: 'from 100 to 599',
    },
    {
      name: 'negative max_response_time_ms',
      patch: { max_response_time_ms: -1 },
      field: 'max_response_time_ms',
      says: 'max_response_time_ms must be a whole number of milliseconds, 0 or more',
    },
    {
      name: 'negative cert_expiry_warn_days',
      patch: { cert_expiry_warn_days: -3 },
      field: 'cert_expiry_warn_days',
      says: 'cert_expiry_warn_days must be a whole number of days, 0 or more',
    },
    {
      name: 'disable_redirects as text',
      patch: { disable_redirects: 'yes' },
      field: 'disable_redirects',
      says: 'disable_redirects must be true or false',
    },
    {
      name: 'match_string not a string',
      patch: { match_string: 7 },
      field: 'match_string',
      says: 'match_string must be a string',
    },
    {
      name: 'post_data not a string',
      patch: { post_data: { body: 'PostSecretBody' } },
      field: 'post_data',
      says: 'post_data must be a string',
    },
  ])('$name', ({ patch, field, says }) => {
    const parsed = parse([other, { guid: 'bad-guid', ...base, ...patch }]);
    expect(parsed.fileError).toBeUndefined();
    expect(parsed.entries.has('bad-guid')).toBe(false);
    expect([...parsed.entries.keys()]).toEqual(['other-guid']);
    const problem = parsed.problems.find((p) => p.field === field);
    expect(problem).toMatchObject({ guid: 'bad-guid', index: 1, severity: 'error' });
    expect(problem?.message).toContain('check "bad-guid" (entry 2)');
    expect(problem?.message).toContain(says);
    expect(problem?.message).toContain('not run until it is fixed');
    expectNoSecrets(messages(parsed.problems));
  });

  it('reports every bad field of an entry at once', () => {
    const parsed = parse([{ guid: 'g', ...base, timeout_sec: 99, match_mode: 'x', status_code_op: 'eq' }]);
    expect(parsed.problems.map((p) => p.field).sort()).toEqual(['match_mode', 'status_code_value', 'timeout_sec']);
  });

  it.each([
    { name: 'guid missing', entry: { ...base }, says: 'entry 2: guid must be a non-empty string' },
    { name: 'guid empty', entry: { guid: '', ...base }, says: 'entry 2: guid must be a non-empty string' },
    { name: 'guid a number', entry: { guid: 12, ...base }, says: 'entry 2: guid must be a non-empty string' },
  ])('names the entry by position when it has no usable guid: $name', ({ entry, says }) => {
    const parsed = parse([other, entry]);
    expect([...parsed.entries.keys()]).toEqual(['other-guid']);
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]).toMatchObject({ index: 1, field: 'guid', severity: 'error' });
    expect(parsed.problems[0]?.guid).toBeUndefined();
    expect(parsed.problems[0]?.message).toContain(says);
  });

  it.each([
    { name: 'a string', entry: 'https://u:S3cretPass@x.test' },
    { name: 'an array', entry: [base] },
    { name: 'null', entry: null },
  ])('an entry that is $name is not an object', ({ entry }) => {
    const parsed = parse([other, entry]);
    expect([...parsed.entries.keys()]).toEqual(['other-guid']);
    expect(parsed.problems).toEqual([
      { index: 1, severity: 'error', message: expect.stringContaining('entry 2 is not an object') as unknown },
    ]);
    expectNoSecrets(messages(parsed.problems));
  });
});

describe('parsePrivateDefinitions: duplicates and warnings', () => {
  it('leaves out every entry of a duplicated guid, valid or not, and says where they are', () => {
    const parsed = parse([
      { guid: 'dup', url: 'http://a.test' },
      other,
      { guid: 'x', url: 'http://x.test' },
      { guid: 'dup', url: 'http://b.test', timeout_sec: 99 },
    ]);
    expect([...parsed.entries.keys()]).toEqual(['other-guid', 'x']);
    const duplicate = parsed.problems.find((p) => p.message.includes('appears'));
    expect(duplicate).toEqual({
      guid: 'dup',
      index: 0,
      field: 'guid',
      severity: 'error',
      message: 'guid "dup" appears 2 times (entries 1 and 4); keep one — none of them is run until then',
    });
  });

  it('lists three or more places', () => {
    const parsed = parse([
      { guid: 'd', url: 'http://a.test' },
      { guid: 'd', url: 'http://a.test' },
      { guid: 'd', url: 'http://a.test' },
    ]);
    expect(parsed.entries.size).toBe(0);
    expect(messages(parsed.problems)).toEqual([
      'guid "d" appears 3 times (entries 1, 2 and 3); keep one — none of them is run until then',
    ]);
  });

  it.each([
    {
      name: 'a misspelt field',
      patch: { timeout: 5 },
      field: 'timeout',
      says: 'unknown field "timeout" is ignored — check its spelling (known fields: url,',
    },
    {
      name: 'a header written at the top level',
      patch: { 'X-Api-Key': 'HdrSecretValue' },
      field: 'X-Api-Key',
      says: 'unknown field "X-Api-Key" is ignored',
    },
    {
      name: 'a pasted header line as a field name',
      patch: { 'Authorization: Bearer NameSecret': true },
      field: '(unknown field)',
      says: 'a field whose name is not a plain word is ignored',
    },
    {
      name: 'status_code_value without an operator',
      patch: { status_code_value: 200 },
      field: 'status_code_op',
      says: 'status_code_value has no effect without status_code_op',
    },
  ])('warns about $name and still loads the entry', ({ patch, field, says }) => {
    const parsed = parse([{ guid: 'g', ...base, ...patch }]);
    expect(parsed.entries.has('g')).toBe(true);
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]).toMatchObject({ guid: 'g', index: 0, field, severity: 'warning' });
    expect(parsed.problems[0]?.message).toContain(says);
    expectNoSecrets(messages(parsed.problems));
  });

  it('does not carry an unknown field into the definition', () => {
    expect(parse([{ guid: 'g', url: 'http://a.test', timeout: 5 }]).entries.get('g')).toStrictEqual({
      url: 'http://a.test',
      match_string: '',
    });
  });
});

describe('parsePrivateDefinitions: the file as a whole', () => {
  it.each([
    { name: 'empty', text: '', says: 'not valid JSON at line 1 column 1: the file ends too early' },
    {
      name: 'half saved',
      text: '{ "checks": [\n  { "guid": "g",',
      says: 'not valid JSON at line 2 column 17: the file ends too early (is it only half saved?)',
    },
    {
      name: 'unquoted value next to a password',
      text: '{"checks": [{"guid": "g", "url": "http://u:S3cretPass@h", "x": NameSecret}]}',
      says: 'not valid JSON at line 1 column 64: a value was expected here',
    },
    {
      name: 'trailing comma',
      text: '{ "checks": [\n  {"guid": "g"},\n]}',
      says: 'at line 2 column 16: a trailing comma before ] is not allowed',
    },
    {
      name: 'single quotes',
      text: "{ 'checks': [] }",
      says: 'at line 1 column 3: a property name in double quotes was expected',
    },
  ])('not JSON: $name', ({ text, says }) => {
    const parsed = parsePrivateDefinitions(text);
    expect(parsed.entries.size).toBe(0);
    expect(parsed.fileError).toContain(says);
    expect(parsed.fileError).toContain('— fix the file and it reloads by itself');
    expectNoSecrets([parsed.fileError ?? '']);
  });

  it.each([
    { name: 'an array', text: '[]' },
    { name: 'a string', text: '"checks"' },
    { name: 'no checks', text: '{ "check": [] }' },
    { name: 'checks an object', text: '{ "checks": { "guid": "g" } }' },
    { name: 'null', text: 'null' },
  ])('wrong shape: $name', ({ text }) => {
    const parsed = parsePrivateDefinitions(text);
    expect(parsed).toEqual({
      entries: new Map(),
      problems: [],
      fileError: expect.stringContaining('the file must hold an object with a "checks" array') as unknown,
    });
  });
});

function tenHeaders(count: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`X-H${i}`, `HdrSecretValue${i}`]));
}
