// sentence(): a capital first and one full stop last, also after a closing parenthesis that
// ends a clause ("… (status 503)." read "… (status 503) 40 results waited" in Outages).
import { describe, expect, it } from 'vitest';
import { sentence } from '../../src-renderer/format.ts';

describe('sentence', () => {
  it.each([
    ['it answered with errors of its own (status 503)', 'It answered with errors of its own (status 503).'],
    ['it refused connections', 'It refused connections.'],
    ['done.', 'Done.'],
    ['(it was already said.)', '(it was already said.)'],
    ['really?', 'Really?'],
    ['  ', ''],
  ])('%j → %j', (text, said) => {
    expect(sentence(text)).toBe(said);
  });
});
