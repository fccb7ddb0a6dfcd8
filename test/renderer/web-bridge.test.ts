// The renderer's reading of the dashboard's SSE stream (the bridge itself meets a real server in
// web-bridge.int.test.ts).
import { describe, expect, it } from 'vitest';
import { parseSse } from '../../src-renderer/bridge/sse.ts';

describe('parseSse', () => {
  it.each([
    { name: 'one message', text: 'event: a\ndata: {"x":1}\n\n', messages: [{ event: 'a', data: '{"x":1}' }], rest: '' },
    {
      name: 'a partial message kept for later',
      text: 'event: a\ndata: {"x"',
      messages: [],
      rest: 'event: a\ndata: {"x"',
    },
    {
      name: 'heartbeat comments ignored',
      text: ': still here\n\nevent: b\ndata: 2\n\n',
      messages: [{ event: 'b', data: '2' }],
      rest: '',
    },
    { name: 'CRLF line ends', text: 'event: c\r\ndata: 3\r\n\r\n', messages: [{ event: 'c', data: '3' }], rest: '' },
    { name: 'multi-line data', text: 'data: a\ndata: b\n\n', messages: [{ event: 'message', data: 'a\nb' }], rest: '' },
  ])('$name', ({ text, messages, rest }) => {
    expect(parseSse(text)).toEqual({ messages, rest });
  });
});
