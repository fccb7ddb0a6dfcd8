const { X509Certificate } = process.getBuiltinModule('node:crypto');
const { readFileSync } = process.getBuiltinModule('node:fs');
// Extra certificate authorities (issue 12 §2): a PEM bundle file, several certificates, trusted
// in addition to the system roots. Read once when a client is made; a bad file is one clear
// sentence naming the file and the setting, never a stack trace.

export type CaBundleOutcome = { ok: true; pems: string[] } | { ok: false; message: string };

const pemBlock = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM bundle file; `what` names the setting for messages. */
export function readCaBundle(file: string, what: string): CaBundleOutcome {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES'
          ? 'cannot be read (permission denied)'
          : `cannot be read (${code ?? 'error'})`;
    return { ok: false, message: `the ${what} file ${file} ${why}; choose a PEM file with your CA certificates` };
  }
  const pems = text.match(pemBlock) ?? [];
  if (pems.length === 0)
    return {
      ok: false,
      message: `the ${what} file ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----); export your CA as PEM`,
    };
  for (const [index, pem] of pems.entries()) {
    try {
      new X509Certificate(pem);
    } catch {
      return {
        ok: false,
        message: `certificate ${index + 1} in the ${what} file ${file} is damaged; export your CA as PEM again`,
      };
    }
  }
  return { ok: true, pems };
}
