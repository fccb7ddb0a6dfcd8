// Two facts about a URL that many modules need and must read the same way: the host without the
// brackets an IPv6 literal wears in a URL (sockets, DNS and NO_PROXY want the bare address), and
// the port, with the scheme's default when the URL leaves it out.

/** "[::1]" → "::1"; any other host unchanged. */
export const bareHost = (hostname: string): string => hostname.replace(/^\[(.*)\]$/, '$1');

/** The scheme's port when the URL gives none: 443 for https (and wss), 80 for everything else. */
export const defaultPortOf = (url: URL): number => (url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80);

/** The port a connection to this URL uses. */
export const portOf = (url: URL): number => (url.port === '' ? defaultPortOf(url) : Number(url.port));
