// One HTTP/1.1 response read off its connection with llhttp (llhttp.ts), as Node's client would
// read it: interim 1xx answers passed over, header bytes bounded, names matched without case,
// a body ending with the connection complete only when its framing says so. The head the probe
// uses comes first; then the body goes to one reader, straight from the parser (no stream).
import type { Socket } from 'node:net';
import { ResponseParser, type ParseError } from './llhttp.ts';

/** What the probe uses of a response's head. */
export interface ResponseHead {
  status: number;
  /** The Location header, when there is exactly one (two different targets are no redirect to follow). */
  location: string | undefined;
  /** Content-Encoding (several joined as Node joins them) and the first Content-Type. */
  contentEncoding: string | undefined;
  contentType: string | undefined;
  /** Set-Cookie lines, for the run's cookie jar. */
  setCookie: string[] | undefined;
  /** The declared Content-Length, when the body has one. */
  contentLength: number | undefined;
}

/** Takes a chunk of the body; true when nothing more is wanted. */
export type TakeChunk = (chunk: Buffer) => boolean;

// Node's client says a connection that ended before its response with this error, which
// errors.ts words as closed early.
const hangUp = (): Error => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const overflow = (): ParseError =>
  Object.assign(new Error('Parse Error: Header overflow'), { code: 'HPE_HEADER_OVERFLOW', reason: 'Header overflow' });
/** An interim answer (100 Continue, 103 Early Hints): the response proper follows it. */
const interim = (status: number): boolean => status >= 100 && status < 200 && status !== 101;
// Body bytes held for a reader that is still busy (decoding) before the connection is paused.
const heldBytesMax = 64 * 1024;

export class ResponseReader {
  readonly #socket: Socket;
  readonly #parser: ResponseParser;
  readonly #maxHeaderBytes: number;
  #headerBytes = 0;
  #overflowed = false;
  #names: string[] = [];
  #values: string[] = [];
  #inName = false;
  #status = 0;
  #head: { resolve: (head: ResponseHead) => void; reject: (err: Error) => void } | undefined;
  readonly head: Promise<ResponseHead>;
  #complete = false;
  /** The connection is over (ended, closed or failed): no more body will come. */
  #over = false;
  #error: Error | undefined;
  #held: Buffer[] = [];
  #heldBytes = 0;
  #take: TakeChunk | undefined;
  #settle: ((err?: Error) => void) | undefined;
  #executing = false;
  #freeAfter = false;

  /** When the head was complete, on the clock given. */
  headersAt = 0;
  /** When the first byte of the answer came, on the clock given; undefined until one does. */
  firstByteAt: number | undefined;
  readonly #now: () => number;

  constructor(socket: Socket, maxHeaderBytes: number, now: () => number) {
    this.#socket = socket;
    this.#maxHeaderBytes = maxHeaderBytes;
    this.#now = now;
    this.#parser = new ResponseParser(this);
    this.head = new Promise((resolve, reject) => (this.#head = { resolve, reject }));
    socket.on('data', (chunk: Buffer) => this.#read(chunk));
    socket.on('end', () => this.#ended());
    socket.on('close', () => this.#closed());
    socket.on('error', (err: Error) => this.#fail(err));
    // A tunnel through the user's proxy hands the socket over paused, its first bytes put back.
    if (socket.isPaused()) socket.resume();
  }

  complete(): boolean {
    return this.#complete;
  }

  /** Feeds the body to `take` until it says enough or the body ends; rejects if the connection fails first. */
  feed(take: TakeChunk): Promise<void> {
    for (let chunk = this.#held.shift(); chunk !== undefined; chunk = this.#held.shift()) {
      this.#heldBytes -= chunk.length;
      if (take(chunk)) return Promise.resolve();
    }
    if (this.#socket.isPaused() && !this.#over) this.#socket.resume();
    if (this.#error !== undefined) return Promise.reject(this.#error);
    if (this.#complete || this.#over) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#take = take;
      this.#settle = (err) => (err === undefined ? resolve() : reject(err));
    });
  }

  /** The body's chunks as they arrive, for a reader that decodes them at its own pace. */
  async *chunks(): AsyncGenerator<Buffer> {
    for (;;) {
      const chunk = this.#held.shift();
      if (chunk !== undefined) {
        this.#heldBytes -= chunk.length;
        if (this.#heldBytes < heldBytesMax && this.#socket.isPaused() && !this.#over) this.#socket.resume();
        yield chunk;
        continue;
      }
      if (this.#error !== undefined) throw this.#error;
      if (this.#complete || this.#over) return;
      await new Promise<void>((resolve) => (this.#settle = () => resolve()));
      this.#settle = undefined;
    }
  }

  /** Ends the connection, whatever is left of the body. */
  close(): void {
    this.#socket.destroy();
    this.#release();
  }

  onStatus(length: number): number {
    return this.#counted(length);
  }

  onHeaderField(text: string): number {
    if (this.#inName) appendLast(this.#names, text);
    else {
      if (this.#values.length < this.#names.length) this.#values.push('');
      this.#names.push(text);
      this.#inName = true;
    }
    return this.#counted(text.length);
  }

  onHeaderValue(text: string): number {
    if (this.#inName) this.#values.push(text);
    else appendLast(this.#values, text);
    this.#inName = false;
    return this.#counted(text.length);
  }

  onHeadersComplete(status: number): number {
    this.#status = status;
    if (this.#values.length < this.#names.length) this.#values.push('');
    if (!interim(status)) this.#headed();
    return 0;
  }

  onBody(bytes: Buffer): number {
    if (interim(this.#status)) return 0;
    const take = this.#take;
    if (take === undefined) {
      this.#held.push(bytes);
      this.#heldBytes += bytes.length;
      if (this.#heldBytes >= heldBytesMax) this.#socket.pause();
      this.#settle?.();
    } else if (take(bytes)) {
      this.#done();
    }
    return 0;
  }

  onMessageComplete(): number {
    if (interim(this.#status)) {
      this.#names = [];
      this.#values = [];
      this.#inName = false;
      this.#headerBytes = 0;
      return 0;
    }
    this.#complete = true;
    this.#done();
    return 0;
  }

  #counted(length: number): number {
    this.#headerBytes += length;
    if (this.#headerBytes <= this.#maxHeaderBytes) return 0;
    this.#overflowed = true;
    return -1;
  }

  /** The head is known (its headers complete, or its message): the probe may go on. */
  #headed(): void {
    this.#inName = false;
    const pending = this.#head;
    if (pending === undefined) return;
    this.#head = undefined;
    this.headersAt = this.#now();
    pending.resolve(headOf(this.#status, this.#names, this.#values));
  }

  #read(chunk: Buffer): void {
    this.firstByteAt ??= this.#now();
    if (this.#complete) return;
    this.#executing = true;
    const step = this.#parser.execute(chunk);
    this.#executing = false;
    if (this.#freeAfter) this.#parser.free();
    if (step === 'upgrade') {
      this.onMessageComplete();
      return;
    }
    if (step !== 'parsed') {
      this.#fail(this.#overflowed ? overflow() : step);
      this.#socket.destroy();
    }
  }

  #ended(): void {
    if (!this.#complete) {
      const step = this.#parser.finish();
      if (step === 'upgrade') this.onMessageComplete();
    }
    this.#closed();
  }

  #closed(): void {
    if (this.#over) return;
    this.#over = true;
    this.#head?.reject(hangUp());
    this.#head = undefined;
    this.#done();
    this.#release();
  }

  #fail(err: Error): void {
    if (this.#over || this.#complete) return;
    this.#error = err;
    this.#over = true;
    this.#head?.reject(err);
    this.#head = undefined;
    this.#done(err);
    this.#release();
  }

  #done(err?: Error): void {
    const settle = this.#settle;
    this.#take = undefined;
    this.#settle = undefined;
    settle?.(err);
  }

  #release(): void {
    if (this.#executing) this.#freeAfter = true;
    else this.#parser.free();
  }
}

/** A header's name or value continues in the next chunk of the connection. */
function appendLast(list: string[], text: string): void {
  list[list.length - 1] = `${list.at(-1) ?? ''}${text}`;
}

/** The head as Node's client gives it: names without case, repeated headers as it keeps them. */
function headOf(status: number, names: readonly string[], values: readonly string[]): ResponseHead {
  const head: ResponseHead = {
    status,
    location: undefined,
    contentEncoding: undefined,
    contentType: undefined,
    setCookie: undefined,
    contentLength: undefined,
  };
  let locations = 0;
  let length: string | undefined;
  for (let i = 0; i < names.length; i++) {
    const value = values[i] ?? '';
    switch ((names[i] ?? '').toLowerCase()) {
      case 'location':
        locations++;
        head.location ??= value;
        break;
      case 'content-encoding':
        head.contentEncoding = head.contentEncoding === undefined ? value : `${head.contentEncoding}, ${value}`;
        break;
      case 'content-type':
        head.contentType ??= value;
        break;
      case 'content-length':
        length ??= value;
        break;
      case 'set-cookie':
        (head.setCookie ??= []).push(value);
        break;
    }
  }
  if (locations !== 1) head.location = undefined;
  head.contentLength = declaredLength(length);
  return head;
}

function declaredLength(header: string | undefined): number | undefined {
  const length = header === undefined ? NaN : Number(header);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}
