// The help text of the headless command: the overview (`uptime-agent --help`, also README's
// "Command reference" block, word for word) and each command's own (`uptime-agent run --help`).
export const usageText = `uptime-agent — the monitor agent of an uptime service, headless

Usage:
  uptime-agent enroll --server URL --name N --region R --country C --city C [--reclaim ID]
                      [--token T | --token-stdin]  (else env UPTIME_AGENT_ENROLL_TOKEN)
                      [--allow-insecure-http] [network flags]
  uptime-agent run    [--private-checks FILE] [--sync-interval S] [--upload-interval S]
                      [--status-interval S] [--ping-interval S] [--resend-refused]
                      [--dashboard [--dashboard-port P]] [network flags]
  uptime-agent status [--json]
  uptime-agent test-check (--file F|- [--guid G] | --guid G [--private-checks FILE])
                      [--checks-ca FILE] [--egress-policy open|strict]
                      [--proxy URL] [--checks-use-proxy]
  uptime-agent dashboard-url   the running dashboard's current URL (exit 1 when none runs)
  uptime-agent COMMAND --help  that command's own usage

Network flags (enroll and run; saved to settings.json):
  --proxy URL            proxy for the agent's traffic to the server (wins over HTTPS_PROXY)
  --server-ca FILE       PEM bundle trusted for the server, besides the system roots
  --checks-ca FILE       PEM bundle trusted for https/tls checks
  --checks-use-proxy     send checks through the proxy too (NO_PROXY honoured per target)
  --egress-policy open|strict   strict: checks may not reach private/loopback addresses
Every boolean flag has a --no- form (--no-checks-use-proxy) that turns it off again.

Every command takes --data-dir DIR (else env UPTIME_AGENT_DATA_DIR, else the app-data folder).

Exit codes: 0 done; 1 failed (test-check: a check failed; run: another run holds the folder;
dashboard-url: no dashboard runs); 2 bad usage, nothing sent (run: not enrolled; test-check:
bad definition); 3 token refused (401); 4 no such monitor to reclaim (404); 5 monitor still
enrolled (409); 6 request refused (400); 7 server unreachable or unexpected answer;
8 the data folder or store is unusable (read-only, full, damaged key file or store).
`;

const dataDirLine = 'Every command takes --data-dir DIR (else env UPTIME_AGENT_DATA_DIR, else the app-data folder).';

/** Each command's own usage, printed by `uptime-agent COMMAND --help`. */
export const commandUsage: Record<string, string> = {
  enroll: `Usage: uptime-agent enroll --server URL --name N --region R --country C --city C [--reclaim ID]
                           [--token T | --token-stdin]  (else env UPTIME_AGENT_ENROLL_TOKEN)
                           [--allow-insecure-http] [network flags]

Enrolls this agent with the uptime server: one request; the key is kept in the data folder
(readable by you only). The last stdout line is the monitor id. --reclaim ID takes a monitor
back after its enrollment was reset on the server. A plain http:// server other than this
machine is refused unless --allow-insecure-http is given (the key would travel in clear).
Network flags (--proxy, --server-ca, --checks-ca, --[no-]checks-use-proxy, --egress-policy)
are saved to settings.json. ${dataDirLine}

Exit codes: 0 enrolled; 2 usage (nothing sent); 3 token refused (401); 4 no such monitor to
reclaim (404); 5 monitor still enrolled (409); 6 request refused (400); 7 server unreachable or
unexpected answer; 8 the data folder is unusable or the issued key could not be saved.
`,
  run: `Usage: uptime-agent run [--private-checks FILE] [--sync-interval S] [--upload-interval S]
                        [--status-interval S] [--ping-interval S] [--resend-refused]
                        [--dashboard [--dashboard-port P]] [network flags]

Runs the agent until SIGINT/SIGTERM, then stops gracefully (a last upload) within 15 s.
Intervals are in seconds; fractions are fine. Flags left out come from settings.json in the
data folder (saved by the dashboard's Settings), else the defaults; network flags given here
are saved there. --resend-refused puts the results the server refused (set aside) back in the
queue and sends them again, e.g. after the server was fixed.

--dashboard serves the agent's window on http://127.0.0.1 (a free port, or P) and prints
"dashboard: URL" with a per-run access token; open it in a browser on this machine. With
--dashboard, run also starts when not enrolled yet: enroll from the page. ${dataDirLine}

Exit codes: 0 stopped; 1 another run holds the data folder, or the dashboard cannot listen;
2 usage, or not enrolled (one line; the data folder is left as it was); 8 the data folder or
store is unusable.
`,
  status: `Usage: uptime-agent status [--json]

Shows the agent's state: identity, unsent results, checks, outages. Only reads (works while
run is going; creates nothing). --json prints one JSON document, e.g. for jq. ${dataDirLine}

Exit codes: 0 shown; 2 usage; 8 the data folder or store is unusable.
`,
  'test-check': `Usage: uptime-agent test-check (--file F|- [--guid G] | --guid G [--private-checks FILE])
                               [--checks-ca FILE] [--egress-policy open|strict]
                               [--proxy URL] [--checks-use-proxy]

Runs checks once, right now, and explains each verdict. --file reads a file (- = stdin) holding
one check, an array of checks, or {"checks": [...]} in the private-definitions format; every
check in it runs (--guid picks one). --guid alone runs a check synced into the data folder (the
store is opened read-only). The data folder's settings.json (egress policy, proxy, CA bundles)
applies unless a flag overrides it. Nothing is stored or uploaded. ${dataDirLine}

Exit codes: 0 every check passed; 1 a check failed; 2 bad definition or usage; 8 the data
folder or store is unusable.
`,
  'dashboard-url': `Usage: uptime-agent dashboard-url

Prints the URL of the dashboard the running "uptime-agent run --dashboard" serves, with its
access token. ${dataDirLine}

Exit codes: 0 printed; 1 no dashboard answers; 2 usage.
`,
};
