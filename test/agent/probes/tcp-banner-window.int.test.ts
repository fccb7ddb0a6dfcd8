// Issue 24 §8: a greeter that sends its banner and then waits for the client (SSH, SMTP) must
// not hold a tcp check until its timeout. As the server's own agent does, the banner is read for
// 3 s after the connect at most (less when timeout_sec is shorter), then the match is decided on
// what arrived. With timeout_sec 60, a decision that waited for the timeout would outlast the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import { startTcpTarget, type SocketTarget } from '../../targets/index.ts';
import { definition } from './definition.ts';

const ssh = 'SSH-2.0-OpenSSH_9.6\r\n';
let greeter: SocketTarget;
let silent: SocketTarget;
beforeAll(async () => {
  greeter = await startTcpTarget({ banner: ssh });
  silent = await startTcpTarget();
});
afterAll(async () => {
  await Promise.all([greeter.close(), silent.close()]);
});

describe('tcp banner window', () => {
  it('decides a greeter that then waits at the end of the banner window, not at the timeout', async () => {
    const [notContains, contains, nothing] = await Promise.all([
      runProbe(definition({ url: greeter.url, match_string: 'Dropbear', match_mode: 'not_contains', timeout_sec: 60 })),
      runProbe(definition({ url: greeter.url, match_string: '220 ', timeout_sec: 60 })),
      runProbe(definition({ url: silent.url, match_string: 'SSH-', timeout_sec: 60 })),
    ]);
    expect(notContains).toMatchObject({ success: true, error: '', decidedBy: 'all-rules', responseSample: ssh });
    expect(contains).toMatchObject({
      success: false,
      decidedBy: 'match',
      error: 'banner does not contain "220 " (banner read for 3 s after connecting: 21 bytes)',
      responseSample: ssh,
    });
    expect(nothing).toMatchObject({
      success: false,
      decidedBy: 'match',
      error: 'banner does not contain "SSH-" (nothing received within 3 s of connecting)',
    });
  }, 15_000);
});
