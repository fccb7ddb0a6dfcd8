// The probes' response parser (llhttp as undici ships it, issue 26) on bytes alone: what it calls
// back with, however the bytes are cut, and the errors it reports in Node's shape.
import { describe, expect, it } from 'vitest';
import { ResponseParser, type ParserEvents } from '../../../src-main/agent/probes/llhttp.ts';

interface Seen {
  status: number;
  fields: string[];
  values: string[];
  body: string;
  complete: number;
}

function recorder(stopAtField = ''): { seen: Seen; events: ParserEvents } {
  const seen: Seen = { status: 0, fields: [], values: [], body: '', complete: 0 };
  let inField = false;
  const events: ParserEvents = {
    onStatus: () => 0,
    onHeaderField: (text) => {
      if (inField) seen.fields.push(`${seen.fields.pop() ?? ''}${text}`);
      else seen.fields.push(text);
      inField = true;
      return seen.fields.at(-1) === stopAtField ? -1 : 0;
    },
    onHeaderValue: (text) => {
      if (inField) seen.values.push(text);
      else seen.values.push(`${seen.values.pop() ?? ''}${text}`);
      inField = false;
      return 0;
    },
    onHeadersComplete: (status) => {
      seen.status = status;
      return 0;
    },
    onBody: (bytes) => {
      seen.body += bytes.toString('latin1');
      return 0;
    },
    onMessageComplete: () => {
      seen.complete++;
      return 0;
    },
  };
  return { seen, events };
}

const response = Buffer.from(
  'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nSet-Cookie: a=1\r\nContent-Length: 11\r\n\r\nhello world',
  'latin1',
);

describe('the response parser', () => {
  it('gives the same head and body however the bytes are cut', () => {
    for (let cut = 1; cut < response.length; cut++) {
      const { seen, events } = recorder();
      const parser = new ResponseParser(events);
      expect(parser.execute(response.subarray(0, cut))).toBe('parsed');
      expect(parser.execute(response.subarray(cut))).toBe('parsed');
      parser.free();
      expect(seen).toEqual({
        status: 200,
        fields: ['Content-Type', 'Set-Cookie', 'Content-Length'],
        values: ['text/plain', 'a=1', '11'],
        body: 'hello world',
        complete: 1,
      });
    }
  });

  it('completes a body without a length only when the connection ends', () => {
    const { seen, events } = recorder();
    const parser = new ResponseParser(events);
    expect(parser.execute(Buffer.from('HTTP/1.0 200 OK\r\n\r\nto the end'))).toBe('parsed');
    expect(seen.complete).toBe(0);
    expect(parser.finish()).toBe('parsed');
    expect(seen).toMatchObject({ body: 'to the end', complete: 1 });
    parser.free();
  });

  it('reports a body cut short at the end of the connection as an error, not as complete', () => {
    const { seen, events } = recorder();
    const parser = new ResponseParser(events);
    parser.execute(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
    expect(parser.finish()).toMatchObject({ code: 'HPE_INVALID_EOF_STATE' });
    expect(seen.complete).toBe(0);
    parser.free();
  });

  it('reports what is not HTTP as Node does, with llhttp’s reason', () => {
    const parser = new ResponseParser(recorder().events);
    const step = parser.execute(Buffer.from('SSH-2.0-OpenSSH_9.6\r\n'));
    expect(step).toMatchObject({ code: 'HPE_INVALID_CONSTANT' });
    expect(step === 'parsed' || step === 'upgrade' ? '' : step.message).toMatch(/^Parse Error: Expected HTTP\//);
    parser.free();
  });

  it('stops when a callback says so', () => {
    const { seen, events } = recorder('Set-Cookie');
    const parser = new ResponseParser(events);
    const step = parser.execute(response);
    expect(step === 'parsed' || step === 'upgrade' ? '' : step.code).toMatch(/^HPE_/);
    expect(seen.body).toBe('');
    parser.free();
  });

  it('keeps each parser to its own response', () => {
    const one = recorder();
    const two = recorder();
    const first = new ResponseParser(one.events);
    const second = new ResponseParser(two.events);
    first.execute(response.subarray(0, 30));
    second.execute(Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'));
    first.execute(response.subarray(30));
    expect([one.seen.status, one.seen.body, two.seen.status, two.seen.complete]).toEqual([200, 'hello world', 404, 1]);
    first.free();
    second.free();
  });
});
