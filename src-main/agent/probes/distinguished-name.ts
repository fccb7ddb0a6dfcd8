// Certificate names written as the server's own agent writes them (Go's pkix.Name.String()),
// because a tls check's match_string is written against that agent's summary (issue 24 §6).
// Go does not keep the certificate's own RDN order: it sorts the well-known attributes into a
// fixed order, most specific first (SERIALNUMBER, CN, OU, O, POSTALCODE, STREET, L, ST, C),
// joins repeated ones with "+", puts other attributes last as OID=#<DER hex>, and escapes
// values as RFC 2253 does. Node's X509Certificate.subject keeps the certificate's order and
// OpenSSL's escaping, so the names are read from the DER here.

/** One DER element: its tag and where its content lies in the buffer. */
interface Element {
  tag: number;
  start: number;
  end: number;
}

function element(der: Uint8Array, at: number): Element {
  const tag = der[at] ?? 0;
  const first = der[at + 1] ?? 0;
  let length = first;
  let start = at + 2;
  if (first >= 0x80) {
    length = 0;
    for (let i = 0; i < (first & 0x7f); i++) length = length * 256 + (der[start + i] ?? 0);
    start += first & 0x7f;
  }
  if (start + length > der.length) throw new Error('truncated DER');
  return { tag, start, end: start + length };
}

function children(der: Uint8Array, parent: Element): Element[] {
  const out: Element[] = [];
  for (let at = parent.start; at < parent.end;) {
    const child = element(der, at);
    out.push(child);
    at = child.end;
  }
  return out;
}

function oidOf(bytes: Uint8Array): string {
  const arcs: number[] = [];
  let value = 0;
  for (const byte of bytes) {
    value = value * 128 + (byte & 0x7f);
    if (byte & 0x80) continue;
    if (arcs.length === 0) {
      const first = Math.min(Math.floor(value / 40), 2);
      arcs.push(first, value - 40 * first);
    } else arcs.push(value);
    value = 0;
  }
  return arcs.join('.');
}

const bmpString = 0x1e;

/** A string value as Go parses it: BMPString from UTF-16BE, the other string types as bytes. */
function stringOf(tag: number, bytes: Uint8Array): string {
  if (tag !== bmpString) return Buffer.from(bytes).toString('utf8');
  return new TextDecoder('utf-16be').decode(bytes);
}

/** Go's short names, in the order its Name.ToRDNSequence() writes them (reversed on output). */
const wellKnown: [oid: string, name: string][] = [
  ['2.5.4.6', 'C'],
  ['2.5.4.8', 'ST'],
  ['2.5.4.7', 'L'],
  ['2.5.4.9', 'STREET'],
  ['2.5.4.17', 'POSTALCODE'],
  ['2.5.4.10', 'O'],
  ['2.5.4.11', 'OU'],
  ['2.5.4.3', 'CN'],
  ['2.5.4.5', 'SERIALNUMBER'],
];
const wellKnownNames = new Map(wellKnown);
/** Go keeps only the last CN and SERIALNUMBER; the others keep every value. */
const singleValued = new Set(['2.5.4.3', '2.5.4.5']);

/** RFC 2253 escaping as Go applies it. */
function escaped(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i] ?? '';
    const escape =
      ',+"\\<>;'.includes(c) || (c === ' ' && (i === 0 || i === value.length - 1)) || (c === '#' && i === 0);
    out += escape ? `\\${c}` : c;
  }
  return out;
}

// Go's asn1.Marshal writes a string as PrintableString when every character allows it, else UTF8String.
const printable = /^[A-Za-z0-9 '()+,\-./:=?]*$/;

/** OID=#hex of the value re-encoded as Go's asn1.Marshal encodes a string. */
function hexForm(oid: string, value: string): string {
  const body = Buffer.from(value, 'utf8');
  const tag = printable.test(value) ? 0x13 : 0x0c;
  const length =
    body.length < 0x80
      ? [body.length]
      : body.length < 0x100
        ? [0x81, body.length]
        : [0x82, body.length >> 8, body.length & 0xff];
  return `${oid}=#${Buffer.concat([Buffer.from([tag, ...length]), body]).toString('hex')}`;
}

/** A Name (SEQUENCE OF SET OF AttributeTypeAndValue) written as Go's pkix.Name.String(). */
function nameString(der: Uint8Array, name: Element): string {
  const known = new Map<string, string[]>();
  /** Attributes Go has no field for, in certificate order: written first, so they end up last. */
  const others: string[] = [];
  for (const rdn of children(der, name)) {
    for (const pair of children(der, rdn)) {
      const [type, value] = children(der, pair);
      if (type === undefined || value === undefined) continue;
      const oid = oidOf(der.subarray(type.start, type.end));
      const text = stringOf(value.tag, der.subarray(value.start, value.end));
      if (!wellKnownNames.has(oid)) others.push(hexForm(oid, text));
      else if (singleValued.has(oid)) known.set(oid, [text]);
      else known.set(oid, [...(known.get(oid) ?? []), text]);
    }
  }
  const sequence = [...others];
  for (const [oid, short] of wellKnown) {
    const values = (known.get(oid) ?? []).filter((v) => !singleValued.has(oid) || v !== '');
    if (values.length > 0) sequence.push(values.map((v) => `${short}=${escaped(v)}`).join('+'));
  }
  return sequence.reverse().join(',');
}

/** Subject and issuer of a DER certificate, as the server's own agent writes them. */
export function certificateNames(der: Uint8Array): { subject: string; issuer: string } {
  const certificate = element(der, 0);
  const [tbs] = children(der, certificate);
  if (tbs === undefined) throw new Error('no tbsCertificate');
  const fields = children(der, tbs);
  // version [0] is optional; then serial, signature, issuer, validity, subject.
  const from = fields[0]?.tag === 0xa0 ? 1 : 0;
  const issuer = fields[from + 2];
  const subject = fields[from + 4];
  if (issuer === undefined || subject === undefined) throw new Error('no issuer or subject');
  return { subject: nameString(der, subject), issuer: nameString(der, issuer) };
}
