// The cookies of one http(s) run (issue 24 §7): consent and session gates set a cookie and
// redirect to themselves, which a browser, blackbox_exporter and the server's own agent follow.
// A jar lives for one run only (never kept between runs, never shared between checks), and
// applies RFC 6265's storage and sending rules: host-only unless a Domain attribute covers the
// host, Path prefixes, Secure only over https (and only set from https), Max-Age over Expires.
// Without the public suffix list, a Domain attribute of a single label ("com") is refused, so a
// cookie cannot widen past the site that set it; within one run that is the only reach it has.

interface Cookie {
  name: string;
  value: string;
  domain: string;
  hostOnly: boolean;
  path: string;
  secure: boolean;
  /** Wall-clock ms after which the cookie is gone; undefined = for the run. */
  expiresAt: number | undefined;
  order: number;
}

/** Bounds what one run keeps, whatever the target sends (browsers keep ~180 per site). */
const maxCookies = 50;
const maxCookieBytes = 4096;

export interface CookieJar {
  /** Stores the Set-Cookie headers of a response to `url`. */
  store(setCookie: readonly string[] | undefined, url: URL): void;
  /** The Cookie header for a request to `url`, or undefined when no cookie applies. */
  header(url: URL): string | undefined;
}

/** A fresh jar for one run; `wallNow` gives the wall clock in ms for Expires and Max-Age. */
export function createCookieJar(wallNow: () => number): CookieJar {
  let cookies: Cookie[] = [];
  let order = 0;
  const live = (): Cookie[] => {
    const now = wallNow();
    cookies = cookies.filter((c) => c.expiresAt === undefined || c.expiresAt > now);
    return cookies;
  };
  return {
    store(setCookie, url) {
      if (setCookie === undefined) return;
      for (const line of setCookie) {
        const cookie = parseSetCookie(line, url, wallNow(), order++);
        if (cookie === undefined) continue;
        const kept = live().filter(
          (c) => !(c.name === cookie.name && c.domain === cookie.domain && c.path === cookie.path),
        );
        const expired = cookie.expiresAt !== undefined && cookie.expiresAt <= wallNow();
        cookies = expired || kept.length >= maxCookies ? kept : [...kept, cookie];
      }
    },
    header(url) {
      // Most runs meet no cookie: asked on every hop, an empty jar answers without building lists.
      if (cookies.length === 0) return undefined;
      const host = hostOf(url);
      const path = url.pathname === '' ? '/' : url.pathname;
      const sent = live()
        .filter((c) => (c.hostOnly ? host === c.domain : domainMatch(host, c.domain)))
        .filter((c) => pathMatch(path, c.path) && (!c.secure || url.protocol === 'https:'))
        // Longer paths first, then older first (RFC 6265 §5.4).
        .sort((a, b) => b.path.length - a.path.length || a.order - b.order);
      return sent.length === 0 ? undefined : sent.map((c) => `${c.name}=${c.value}`).join('; ');
    },
  };
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

const ipLiteral = /^[\d.]+$|:/;

function domainMatch(host: string, domain: string): boolean {
  return host === domain || (host.endsWith(`.${domain}`) && !ipLiteral.test(host));
}

function pathMatch(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

/** RFC 6265 §5.1.4: the request path up to its last "/", or "/". */
function defaultPath(url: URL): string {
  const path = url.pathname;
  const last = path.lastIndexOf('/');
  return !path.startsWith('/') || last <= 0 ? '/' : path.slice(0, last);
}

/** One Set-Cookie line as RFC 6265 §5.2 and §5.3 store it, or undefined when it is ignored. */
function parseSetCookie(line: string, url: URL, now: number, order: number): Cookie | undefined {
  if (line.length > maxCookieBytes) return undefined;
  const [pair = '', ...attributes] = line.split(';');
  const eq = pair.indexOf('=');
  if (eq < 0) return undefined;
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  if (name === '') return undefined;
  let expires: number | undefined;
  let maxAge: number | undefined;
  let domain = '';
  let path: string | undefined;
  let secure = false;
  for (const attribute of attributes) {
    const at = attribute.indexOf('=');
    const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const arg = at < 0 ? '' : attribute.slice(at + 1).trim();
    if (key === 'expires') {
      const t = Date.parse(arg);
      if (!Number.isNaN(t)) expires = t;
    } else if (key === 'max-age' && /^-?\d+$/.test(arg)) {
      maxAge = Number(arg);
    } else if (key === 'domain' && arg !== '') {
      domain = arg.replace(/^\./, '').toLowerCase();
    } else if (key === 'path') {
      path = arg.startsWith('/') ? arg : undefined;
    } else if (key === 'secure') {
      secure = true;
    }
  }
  const host = hostOf(url);
  // A Secure cookie set over plain http is ignored, as browsers do (RFC 6265bis §5.7).
  if (secure && url.protocol !== 'https:') return undefined;
  if (domain !== '') {
    // A Domain that does not cover the host, or a single label ("com") other than the host, is refused.
    if (!domainMatch(host, domain) || (!domain.includes('.') && domain !== host)) return undefined;
  }
  const expiresAt = maxAge !== undefined ? now + maxAge * 1000 : expires;
  return {
    name,
    value,
    domain: domain === '' ? host : domain,
    hostOnly: domain === '',
    path: path ?? defaultPath(url),
    secure,
    expiresAt,
    order,
  };
}
