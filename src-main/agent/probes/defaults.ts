// Every probe tunable in one place, each with the reason for its value.
import { wireLimits } from '../wire/limits.ts';

export const probeDefaults = {
  /** timeout_sec 0/absent (wire-api.md "Limits"). */
  timeoutSec: wireLimits.defaultTimeoutSec,
  /** timeout_sec above this is clamped (wire-api.md "Limits"). */
  maxTimeoutSec: wireLimits.maxTimeoutSec,
  /** Extra request headers a check may carry (wire-api.md); more fails the check, no silent cut. */
  maxHeaders: wireLimits.headersPerCheck,
  /** Redirect hops followed before giving up; browsers stop around 20, real sites need 2-3. */
  maxRedirects: 10,
  /** Body bytes examined for match_string: enough for any real page, bounded for endless ones. */
  maxBodyBytes: 4 * 1024 * 1024,
  /**
   * Body bytes a check without a match string still reads (beyond its sample), so a short page
   * that ends before its declared length is seen as cut (issue 24 §4); bounded, so a large
   * download or an endless stream is not fetched whole for a status check.
   */
  completeBodyBytes: 16 * 1024,
  /** Default response_sample length in code points when the caller does not say. */
  sampleChars: 4096,
  /**
   * response_sample ceiling whatever result_detail_max_chars says (issue 12 §5): at most 16 KiB
   * of UTF-8, so one result always fits the wire's 1 MiB per call with room to spare.
   */
  maxSampleChars: 4096,
  /** error ceiling, same reason: a match string or URL quoted in it must not blow the limit. */
  maxErrorChars: 2048,
  /** Response header block limit; 4x Node's 16 KiB default so cookie-heavy sites still pass. */
  maxHeaderBytes: 64 * 1024,
  /** Banner bytes read from a tcp service: greetings (SSH, SMTP, FTP) are one short line. */
  maxBannerBytes: 4096,
  /**
   * How long a tcp check reads the banner after connecting (issue 24 §8), as the server's own
   * agent does: a greeter that then waits for the client is decided here, not at the timeout.
   */
  bannerWindowMs: 3000,
  /** After a tls/tcp probe ends its side, how long the peer gets to close before a reset. */
  closeGraceMs: 1000,
  /** Sent unless the check sets its own User-Agent, so target logs can tell probe traffic. */
  userAgent: 'uptime-agent',
  /** Like `curl -d`: a POST body without a user Content-Type is sent as a form. */
  postContentType: 'application/x-www-form-urlencoded',
} as const;
