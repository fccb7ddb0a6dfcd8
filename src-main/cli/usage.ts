// The help text of the headless command.
export const usageText = `uptime-agent — the monitor agent of an uptime service, headless

Usage:
  uptime-agent enroll --server URL --name N --region R --country C --city C [--reclaim ID]
                      [--token T | --token-stdin]  (else env UPTIME_AGENT_ENROLL_TOKEN)
                      [--allow-insecure-http] [network flags]
  uptime-agent run    [--private-checks FILE] [--sync-interval S] [--upload-interval S]
                      [--status-interval S] [--ping-interval S]
                      [--dashboard [--dashboard-port P]] [network flags]
  uptime-agent status [--json]
  uptime-agent test-check (--file F [--guid G] | --guid G [--private-checks FILE])
                      [--checks-ca FILE] [--egress-policy open|strict]
  uptime-agent dashboard-url   the running dashboard's current URL (exit 1 when none runs)

Network flags (enroll and run; saved to settings.json):
  --proxy URL            proxy for the agent's traffic to the server (wins over HTTPS_PROXY)
  --server-ca FILE       PEM bundle trusted for the server, besides the system roots
  --checks-ca FILE       PEM bundle trusted for https/tls checks
  --checks-use-proxy     send checks through the proxy too (NO_PROXY honoured per target)
  --egress-policy open|strict   strict: checks may not reach private/loopback addresses

Every command takes --data-dir DIR (else env UPTIME_AGENT_DATA_DIR, else the app-data folder).
Intervals are in seconds; fractions are fine. Flags left out of run come from settings.json in
the data folder (saved by the dashboard's Settings), else the defaults.

run --dashboard serves the agent's window on http://127.0.0.1 (a free port, or P) and prints
"dashboard: URL" with a per-run access token; open that URL in a browser on this machine. With
--dashboard, run also starts when the agent is not enrolled yet: enroll from the page. The URL
is also written to dashboard-url in the data folder (readable by you only); a restarted run
takes the same port and token again when the port is free, so an open tab reconnects.

test-check runs one check once and explains the verdict: a definition from a file in the
private-definitions format (nothing enrolled needed), or a synced check by guid. Nothing is
uploaded. Exit codes: 0 pass, 1 fail, 2 bad definition or usage.

Exit codes of enroll: 0 enrolled (last stdout line = monitor id), 2 usage (nothing sent),
3 token refused (401), 4 no such monitor to reclaim (404), 5 monitor still enrolled (409),
6 request refused (400), 7 server unreachable or unexpected answer.
`;
