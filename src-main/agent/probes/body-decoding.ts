// HTTP bodies as a browser reads them (issue 10 §3): Content-Encoding (gzip, deflate, br, zstd) undone by node:zlib's
// streaming decompressors, pulled one chunk at a time so the caller's byte cap bounds the
// decoded size too (a compression bomb is never inflated past what the scanner reads), and the
// charset taken from Content-Type (a BOM wins, as in the WHATWG encoding standard).
import type { Transform } from 'node:stream';
const { Readable, pipeline } = process.getBuiltinModule('node:stream');
const { createBrotliDecompress, createGunzip, createInflate, createInflateRaw, createZstdDecompress } =
  process.getBuiltinModule('node:zlib');

/** Content codings the probe can undo, by their Content-Encoding token. */
const decoders: Record<string, (first: Buffer) => Transform> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  br: () => createBrotliDecompress(),
  // Sent by Chrome and Firefox since 2024 (RFC 8878); Node 24 decodes it natively.
  zstd: () => createZstdDecompress(),
  // "deflate" should be zlib-wrapped (RFC 9110), but servers also send raw deflate; browsers
  // accept both, told apart by the zlib header (CM 8, header checksum divisible by 31).
  deflate: (first) => (isZlibHeader(first) ? createInflate() : createInflateRaw()),
};

function isZlibHeader(bytes: Buffer): boolean {
  const cmf = bytes[0];
  const flg = bytes[1];
  if (cmf === undefined || (cmf & 0x0f) !== 8) return false;
  return flg === undefined || ((cmf << 8) | flg) % 31 === 0;
}

/** The codings of a Content-Encoding header in the order they were applied ("identity" dropped). */
export function contentCodings(header: string | string[] | undefined): string[] {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '' && token !== 'identity');
}

/** Why the codings cannot be undone, or '' when they can. */
export function codingProblem(codings: readonly string[]): string {
  const unknown = codings.find((coding) => decoders[coding] === undefined);
  return unknown === undefined
    ? ''
    : `the body uses Content-Encoding ${JSON.stringify(unknown)}, which the agent cannot decode`;
}

/** A decoding failure of the body itself (corrupt or truncated compressed data). */
export class BodyDecodeError extends Error {
  readonly code = 'BODY_DECODE';

  constructor(coding: string) {
    super(`the body is not valid ${coding} data (Content-Encoding: ${coding})`);
    this.name = 'BodyDecodeError';
  }
}

/**
 * `body` with `codings` undone, last applied first. Reading stops whenever the caller stops
 * iterating; the decompressors then end with it.
 */
export function decodedBody(body: AsyncIterable<Buffer>, codings: readonly string[]): AsyncIterable<Buffer> {
  return [...codings].reverse().reduce((source, coding) => undo(source, coding), body);
}

async function* undo(source: AsyncIterable<Buffer>, coding: string): AsyncGenerator<Buffer> {
  const make = decoders[coding];
  if (make === undefined) throw new BodyDecodeError(coding);
  const chunks = source[Symbol.asyncIterator]();
  const first = await chunks.next();
  if (first.done === true) return;
  const input = Readable.from(
    (async function* () {
      yield first.value;
      for (;;) {
        const next = await chunks.next();
        if (next.done === true) return;
        yield next.value;
      }
    })(),
  );
  const decompressor = make(first.value);
  // Errors reach the loop below through the decompressor, which pipeline destroys with them.
  pipeline(input, decompressor, () => undefined);
  try {
    for await (const chunk of decompressor as AsyncIterable<Buffer>) yield chunk;
  } catch (err) {
    throw isZlibError(err) ? new BodyDecodeError(coding) : err;
  } finally {
    decompressor.destroy();
    input.destroy();
  }
}

function isZlibError(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';
  return (
    code.startsWith('Z_') || code.startsWith('ERR_BROTLI') || code.startsWith('ERR__ERROR') || code.startsWith('ZSTD_')
  );
}

/** The charset parameter of a Content-Type header, lowercased, or undefined. */
export function charsetOf(contentType: string | string[] | undefined): string | undefined {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  const match = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(value ?? '');
  return match?.[2]?.toLowerCase();
}

/** Bytes of an HTML document searched for a <meta> charset (the HTML prescan's window). */
const prescanBytes = 1024;

/**
 * The charset an HTML document declares in its first bytes: <meta charset="…"> or
 * <meta http-equiv="Content-Type" content="…; charset=…">. A UTF-16 label there is read as
 * UTF-8, as the HTML standard says (the bytes of the tag were ASCII, so it cannot be UTF-16).
 */
export function metaCharset(head: Uint8Array): string | undefined {
  const text = Buffer.from(head.subarray(0, prescanBytes)).toString('latin1');
  const label = /<meta\b[^>]*?charset\s*=\s*["']?\s*([\w.:+-]+)/i.exec(text)?.[1]?.toLowerCase();
  return label?.startsWith('utf-16') === true ? 'utf-8' : label;
}

/**
 * The decoder for a body starting with `head`: a byte order mark decides, else `charset` when
 * TextDecoder knows the label (Node ships full ICU: ISO-8859-x, windows-125x, Shift_JIS, GBK,
 * UTF-16...), else for HTML the <meta> charset in the bytes at hand, else UTF-8. Invalid
 * sequences become U+FFFD, never an error.
 */
export function textDecoderFor(head: Uint8Array, charset: string | undefined, html = false): TextDecoder {
  const bom = bomEncoding(head);
  if (bom !== undefined) return new TextDecoder(bom);
  const label = charset ?? (html ? metaCharset(head) : undefined);
  if (label !== undefined) {
    try {
      return new TextDecoder(label);
    } catch {
      // An unknown label: UTF-8 with replacement, as browsers fall back.
    }
  }
  return new TextDecoder('utf-8');
}

const boms = [
  [0xef, 0xbb, 0xbf],
  [0xff, 0xfe],
  [0xfe, 0xff],
];

/** Whether `head` is a proper prefix of a BOM, so more bytes are needed to choose a decoder. */
export function bomUndecided(head: Uint8Array): boolean {
  return boms.some((bom) => head.length < bom.length && head.every((byte, i) => byte === bom[i]));
}

function bomEncoding(head: Uint8Array): string | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return undefined;
}
