// Error objects shaped like Node's (code, cause, AggregateError), not mocks of a
// network: the network cases are in the probe tests against real sockets.
import { describe, expect, it } from 'vitest';
import { CertificateRejectedError } from '../../../src-main/agent/probes/certificate.ts';
import { describeError } from '../../../src-main/agent/probes/errors.ts';

const coded = (code: string, message = 'x', extra: Record<string, unknown> = {}): Error =>
  Object.assign(new Error(message), { code, ...extra });

const cert = { subject: 'CN=a', issuer: 'CN=b', validTo: '2026-11-24T00:00:00Z', daysLeft: -3 };

describe('describeError', () => {
  it.each([
    { name: 'refused', err: coded('ECONNREFUSED'), out: 'connection refused' },
    { name: 'reset', err: coded('ECONNRESET'), out: 'connection reset' },
    { name: 'dns not found', err: coded('ENOTFOUND'), out: 'DNS lookup failed for nosuch.invalid' },
    {
      name: 'dns temporary',
      err: coded('EAI_AGAIN'),
      out: 'DNS lookup failed for nosuch.invalid (temporary DNS failure)',
    },
    {
      name: 'node: headers overflow',
      err: coded('HPE_HEADER_OVERFLOW', 'Parse Error: Header overflow', { reason: 'Header overflow' }),
      out: 'response headers too large (over 64 KiB)',
    },
    {
      name: 'node: hang-up before the response',
      err: coded('ECONNRESET', 'socket hang up'),
      out: 'connection closed by the target before a complete response',
    },
    {
      name: 'node: body cut short',
      err: coded('ECONNRESET', 'aborted'),
      out: 'connection closed by the target before a complete response',
    },
    { name: 'node: reset from the peer', err: coded('ECONNRESET', 'read ECONNRESET'), out: 'connection reset' },
    {
      name: 'node: http parser reason',
      err: coded('HPE_INVALID_CONSTANT', 'Parse Error: Expected HTTP/', { reason: 'Expected HTTP/' }),
      out: 'invalid HTTP response (Expected HTTP/)',
    },
    {
      name: 'llhttp: the protocols it could read, of which a probe reads HTTP',
      err: coded('HPE_INVALID_CONSTANT', 'Parse Error: Expected HTTP/, RTSP/ or ICE/', {
        reason: 'Expected HTTP/, RTSP/ or ICE/',
      }),
      out: 'invalid HTTP response (Expected HTTP/)',
    },
    {
      name: 'altname',
      err: coded('ERR_TLS_CERT_ALTNAME_INVALID'),
      out: 'TLS certificate does not match nosuch.invalid',
    },
    {
      name: 'plain tcp port',
      err: coded('ERR_SSL_WRONG_VERSION_NUMBER'),
      out: 'TLS handshake failed: the target did not answer with TLS (a plain TCP port?)',
    },
    {
      name: 'other ssl error uses the reason',
      err: coded('ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'long', { reason: 'sslv3 alert handshake failure' }),
      out: 'TLS handshake failed: sslv3 alert handshake failure',
    },
    {
      name: 'closed during handshake',
      err: new Error('Client network socket disconnected before secure TLS connection was established'),
      out: 'TLS handshake failed: the target closed the connection',
    },
    {
      name: 'wrapped in cause',
      err: Object.assign(new Error('fetch failed'), { cause: coded('ECONNREFUSED') }),
      out: 'connection refused',
    },
    {
      name: 'inside AggregateError',
      err: new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], 'all failed'),
      out: 'connection refused',
    },
    {
      name: 'unknown code keeps code and message',
      err: coded('EWEIRD', 'something odd'),
      out: 'EWEIRD: something odd',
    },
    { name: 'not an error object', err: 'boom', out: 'boom' },
  ])('$name', ({ err, out }) => {
    expect(describeError(err, 'nosuch.invalid')).toBe(out);
  });

  it.each([
    {
      name: 'expired with date',
      code: 'CERT_HAS_EXPIRED',
      certificate: cert,
      out: 'TLS certificate expired on 2026-11-24',
    },
    {
      name: 'expired without certificate',
      code: 'CERT_HAS_EXPIRED',
      certificate: undefined,
      out: 'TLS certificate expired',
    },
    {
      name: 'self-signed',
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      certificate: cert,
      out: 'TLS certificate is self-signed',
    },
    {
      name: 'self-signed in chain',
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
      certificate: cert,
      out: 'TLS certificate not trusted (self-signed certificate in chain)',
    },
    {
      name: 'unknown issuer',
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      certificate: cert,
      out: 'TLS certificate not trusted (unknown issuer)',
    },
    {
      name: 'issuer not local',
      code: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
      certificate: cert,
      out: 'TLS certificate not trusted (unknown issuer)',
    },
    {
      name: 'wrong host',
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      certificate: cert,
      out: 'TLS certificate does not match example.test',
    },
    {
      name: 'unlisted code named',
      code: 'CERT_UNTRUSTED',
      certificate: cert,
      out: 'TLS certificate not trusted (CERT_UNTRUSTED)',
    },
  ])('certificate: $name', ({ code, certificate, out }) => {
    expect(describeError(new CertificateRejectedError(code, 'example.test', certificate), 'ignored')).toBe(out);
  });
});
