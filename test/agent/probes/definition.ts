// A complete CheckDefinition from the few fields a test cares about: the schema's output type
// lists every optional field as present-but-undefined.
import type { CheckDefinition } from '../../../src-main/agent/wire/schemas.ts';

export function definition(fields: Partial<CheckDefinition> & { url: string }): CheckDefinition {
  return {
    match_string: '',
    timeout_sec: undefined,
    match_mode: undefined,
    post_data: undefined,
    headers: undefined,
    disable_redirects: undefined,
    status_code_op: undefined,
    status_code_value: undefined,
    max_response_time_ms: undefined,
    insecure_skip_verify: undefined,
    invert_result: undefined,
    cert_expiry_warn_days: undefined,
    ...fields,
  };
}
