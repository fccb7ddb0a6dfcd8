// The kinds of check the agent runs, named by their URL scheme: the one list the probes, the
// private definitions file and the UI's check types all follow.
export const checkSchemes = ['http', 'https', 'tcp', 'tls'] as const;
export type CheckScheme = (typeof checkSchemes)[number];

/** "http, https, tcp or tls" (with a suffix: "http://, https://, tcp:// or tls://"), for messages. */
export function checkSchemeList(suffix = ''): string {
  const words = checkSchemes.map((scheme) => `${scheme}${suffix}`);
  return `${words.slice(0, -1).join(', ')} or ${words.at(-1) ?? ''}`;
}

/** The check scheme of a URL's protocol ("https:"), or undefined when the agent has no probe for it. */
export function checkSchemeOf(protocol: string): CheckScheme | undefined {
  const scheme = protocol.replace(/:$/, '').toLowerCase();
  return (checkSchemes as readonly string[]).includes(scheme) ? (scheme as CheckScheme) : undefined;
}
