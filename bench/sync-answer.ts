// node bench/sync-answer.ts — how large the sync answer (GET /api/checks) is for the largest
// check set the README advertises (45,000 checks), each with the 10 headers the wire allows, a
// post body and a match string of realistic length. Prints bytes; asserts nothing. The agent's
// answer limit for /api/checks (wire/limits.ts syncAnswerBytes) is sized from this figure.
import type { WireCheck } from '../src-main/agent/wire/schemas.ts';
import { wireLimits } from '../src-main/agent/wire/limits.ts';

const checks = Number(process.env.BENCH_CHECKS ?? '45000');

function check(i: number): WireCheck {
  const guid = `${i.toString(16).padStart(8, '0')}-4f1c-4a2b-9d3e-${(i * 7919).toString(16).padStart(12, '0')}`;
  return {
    guid,
    name: `Shop front ${i} — checkout API (eu-west, production)`,
    url: `https://service-${i}.customers.example.com/api/v2/health/ready?probe=uptime&region=eu-west-1`,
    enabled: true,
    deleted: false,
    interval_sec: 60,
    timeout_sec: 10,
    match_string: '"status":"ok"',
    match_mode: 'contains',
    post_data: '{"probe":"uptime","verbose":false}',
    headers: Object.fromEntries(
      Array.from({ length: wireLimits.headersPerCheck }, (_, h) => [
        `X-Custom-Header-${h}`,
        `value-${h}-${'abcdefghijklmnopqrstuvwxyz'.slice(0, 24)}`,
      ]),
    ),
    disable_redirects: false,
    status_code_op: 'eq',
    status_code_value: 200,
    max_response_time_ms: 2000,
    insecure_skip_verify: false,
    invert_result: false,
    cert_expiry_warn_days: 14,
    result_detail_max_chars: 500,
    down_interval_sec: 300,
    updated_at: '2026-11-21T10:00:00.123456Z',
    monitor_count: 3,
    monitor_rank: 1,
  };
}

const body = JSON.stringify({
  checks: Array.from({ length: checks }, (_, i) => check(i)),
  server_time: '2026-11-21T10:00:00.123456Z',
});
const bytes = Buffer.byteLength(body);
const mib = (n: number): string => (n / 1024 / 1024).toFixed(1);
console.log(`${checks} checks, ${wireLimits.headersPerCheck} headers each: ${bytes} bytes (${mib(bytes)} MiB)`);
console.log(`per check: ${Math.round(bytes / checks)} bytes`);
console.log(
  `agent's limit for the sync answer: ${wireLimits.syncAnswerBytes} bytes (${mib(wireLimits.syncAnswerBytes)} MiB)`,
);
