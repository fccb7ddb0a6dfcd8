// The only links the app hands to the system browser: https, with no credentials in them (a
// "https://bank.example@evil.example" link reads like one site and opens another).
export function safeExternalUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '' || parsed.hostname === '')
    return undefined;
  return parsed.href;
}
