// Wire objects for tests, complete with every required field.
import type { WireCheck } from '../../src-main/agent/wire/schemas.ts';

export function wireCheck(overrides: Partial<WireCheck> & { guid: string }): WireCheck {
  return {
    name: `check ${overrides.guid}`,
    url: 'http://127.0.0.1:9/',
    enabled: true,
    deleted: false,
    interval_sec: 60,
    match_string: '',
    result_detail_max_chars: 200,
    updated_at: '2026-11-21T10:00:00.000000Z',
    ...overrides,
  };
}
