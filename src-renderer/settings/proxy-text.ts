// A proxy URL as the window may show it: the password is never drawn in clear.

/** The URL with its password (if any) replaced by dots; anything unparsable is shown as typed only when it holds no "@". */
export function maskProxy(url: string | undefined): string {
  if (url === undefined || url.trim() === '') return '';
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^@/]*)@(.*)$/i.exec(url.trim());
  if (match === null) return url.trim();
  const [, scheme = '', credentials = '', rest = ''] = match;
  const colon = credentials.indexOf(':');
  if (colon < 0) return url.trim();
  return `${scheme}${credentials.slice(0, colon)}:•••@${rest}`;
}

/** Why a typed proxy URL cannot be used, in words; undefined when it can (or is empty). */
export function proxyProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return 'Proxy: give a URL such as http://proxy.example:3128 (with user:password@ before the host if the proxy asks for them).';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `Proxy: ${parsed.protocol.replace(':', '')}:// proxies are not supported; use an http:// or https:// proxy.`;
  }
  if (parsed.hostname === '') return 'Proxy: the URL names no host.';
  return undefined;
}
