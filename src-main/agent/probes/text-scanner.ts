// Reads a stream of bytes (an HTTP body, a tcp banner) incrementally: looks for the match
// string across chunk boundaries and keeps a leading sample, holding only a bounded amount of
// text in memory and saying as soon as nothing more needs to be read.
import { bomUndecided, textDecoderFor } from './body-decoding.ts';
import { cutOwn } from './detail.ts';
import { matchSettled } from './verdict.ts';

export interface ScanOptions {
  matchString: string;
  matchMode: string | undefined;
  /** Code points of sample wanted; 0 = none. */
  sampleChars: number;
  /** Hard cap on bytes examined; the rest of the stream is never read. */
  maxBytes: number;
  /** Charset label (e.g. from Content-Type); a BOM wins; unknown or absent = UTF-8. */
  charset?: string;
  /**
   * The stream is an HTML document: without a charset, a <meta> declaration in the first chunk
   * decides (not waited for beyond it: a page trickling in must not stall an early match).
   */
  html?: boolean;
}

export interface ScanResult {
  found: boolean;
  /** Leading decoded text, uncleaned; the caller cleans and caps it. */
  sample: string;
  bytes: number;
  /** The byte cap was reached: whatever followed was not examined. */
  capped: boolean;
}

export interface TextScanner {
  /** Feeds a chunk; returns true when reading can stop. */
  push(chunk: Uint8Array): boolean;
  finish(): ScanResult;
}

export function createTextScanner(options: ScanOptions): TextScanner {
  const { matchString, matchMode, sampleChars, maxBytes, charset, html = false } = options;
  // Chosen once the first bytes show whether there is a byte order mark.
  let decoder: TextDecoder | undefined;
  let head = new Uint8Array(0);
  // Two UTF-16 units per code point guarantee enough text for the sample before cleaning.
  const sampleUnits = sampleChars * 2;
  let sample = '';
  // The last matchString.length - 1 units, so a needle split across chunks is still found.
  let tail = '';
  let found = false;
  let bytes = 0;
  let capped = false;

  const take = (text: string): void => {
    // Its own text: a run in flight holds its sample, not the whole chunk it came from.
    if (sample.length < sampleUnits) sample += cutOwn(text, sampleUnits - sample.length);
    if (matchString === '' || found) return;
    const window = tail + text;
    found = window.includes(matchString);
    tail = window.slice(Math.max(0, window.length - (matchString.length - 1)));
  };
  // With a match string, its verdict alone decides when to stop (the sample is what was read
  // by then: a service need not be waited on for a nicer sample); without, the sample does.
  const done = (): boolean =>
    capped || (matchString === '' ? sample.length >= sampleUnits : matchSettled(matchString, matchMode, found));

  return {
    push(chunk) {
      if (done()) return true;
      const room = maxBytes - bytes;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      bytes += part.length;
      capped = bytes >= maxBytes;
      if (decoder === undefined) {
        head = Buffer.concat([head, part]);
        if (bomUndecided(head) && !capped) return false;
        decoder = textDecoderFor(head, charset, html);
        take(decoder.decode(head, { stream: true }));
      } else {
        take(decoder.decode(part, { stream: true }));
      }
      return done();
    },
    finish() {
      // A stream shorter than a BOM is decoded whole here; otherwise the decoder is flushed.
      take(decoder === undefined ? textDecoderFor(head, charset, html).decode(head) : decoder.decode());
      return { found, sample, bytes, capped };
    },
  };
}
