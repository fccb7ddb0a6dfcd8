// Each input limit is written once (base/input-limits.ts) and every surface holds to it: the
// command's flags, the IPC contract the window's saves go through, and enroll's own check.
import { describe, expect, it } from 'vitest';
import { inputLimits } from '../../../src-main/agent/base/input-limits.ts';
import { validateEnrollInput } from '../../../src-main/agent/identity/enrollment.ts';
import { intervalSeconds } from '../../../src-main/cli/args.ts';
import { invokeArgs, settingsSchema } from '../../../src-main/ipc/contract.ts';

const { intervalSec, enrollFieldChars } = inputLimits;

describe('input limits, one source', () => {
  it.each([
    { seconds: intervalSec.min, ok: true },
    { seconds: intervalSec.max, ok: true },
    { seconds: intervalSec.min / 2, ok: false },
    { seconds: intervalSec.max + 1, ok: false },
  ])('an interval of $seconds s is ok: $ok, on the command line and in the settings', ({ seconds, ok }) => {
    expect(intervalSeconds.safeParse(String(seconds)).success).toBe(ok);
    expect(settingsSchema.safeParse({ intervals: { syncSec: seconds } }).success).toBe(ok);
  });

  it.each([
    { length: enrollFieldChars, ok: true },
    { length: enrollFieldChars + 1, ok: false },
  ])('a monitor name of $length characters is ok: $ok, in enroll, its IPC call and the settings', ({ length, ok }) => {
    const place = { name: 'n'.repeat(length), region: 'r', country: 'c', city: 'c' };
    const input = { server: 'https://up.example', token: 't', ...place };
    expect(validateEnrollInput(input).ok).toBe(ok);
    expect(invokeArgs['agent:enroll'].safeParse(input).success).toBe(ok);
    expect(settingsSchema.safeParse({ monitorName: place.name }).success).toBe(ok);
  });
});
