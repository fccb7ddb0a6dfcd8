// The HTTP/1.1 response parser the probes read answers with: llhttp, the parser of Node's own
// HTTP client, as undici (the agent's API client) ships it compiled to WebAssembly. Node's copy
// is reachable only through its client, whose request object, body stream and events cost more
// than the whole loopback exchange: on a socket dialled the same way, 0.13-0.14 ms and 10 KB of
// garbage a run against 0.19-0.23 ms and 21 KB (issue 26, docs/performance.md "What a probe
// allocates"). The same parser keeps the same strictness and the same error reasons.

import { undiciFile } from '../base/undici-file.ts';

/**
 * What the parser tells, as it parses. Each returns 0 to go on, or -1 to stop parsing. The head's
 * pieces come as Latin-1 text (one character a byte, as Node's client reads them), cut straight
 * from the chunk: no view of the chunk is made for them.
 */
export interface ParserEvents {
  onStatus(length: number): number;
  onHeaderField(text: string): number;
  onHeaderValue(text: string): number;
  onHeadersComplete(status: number): number;
  onBody(bytes: Buffer): number;
  onMessageComplete(): number;
}

/** A parse error as Node's HTTP client reports one: code HPE_*, llhttp's reason ("Expected HTTP/"). */
export type ParseError = Error & { code: string; reason: string };

interface LlhttpExports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(ptr: number): void;
  llhttp_alloc(type: number): number;
  llhttp_free(parser: number): void;
  llhttp_execute(parser: number, data: number, length: number): number;
  llhttp_finish(parser: number): number;
  llhttp_get_error_reason(parser: number): number;
}

const constants = undiciFile('lib/llhttp/constants.js') as {
  ERROR: Record<string, number>;
  TYPE: { RESPONSE: number };
};
const okCode = constants.ERROR.OK;
const upgradeCode = constants.ERROR.PAUSED_UPGRADE;
/** llhttp's error names by code, as Node's client names its parse errors (HPE_INVALID_CONSTANT). */
const errorNames = new Map(Object.entries(constants.ERROR).map(([name, code]) => [code, name]));

// The parser being run and the chunk it reads: llhttp calls back with offsets into its own copy.
let current: ParserEvents | undefined;
let chunkRef: Buffer | undefined;
let bufferPtr = 0;
let bufferSize = 0;
let bufferView: Uint8Array | undefined;

const at = (ptr: number, length: number): Buffer =>
  (chunkRef as Buffer).subarray(ptr - bufferPtr, ptr - bufferPtr + length);
const textAt = (ptr: number, length: number): string =>
  (chunkRef as Buffer).toString('latin1', ptr - bufferPtr, ptr - bufferPtr + length);

function instantiate(): LlhttpExports {
  let module: WebAssembly.Module;
  try {
    module = new WebAssembly.Module(undiciFile('lib/llhttp/llhttp_simd-wasm.js') as Uint8Array<ArrayBuffer>);
  } catch {
    // A machine without WebAssembly SIMD: the plain build.
    module = new WebAssembly.Module(undiciFile('lib/llhttp/llhttp-wasm.js') as Uint8Array<ArrayBuffer>);
  }
  const events = (): ParserEvents => current as ParserEvents;
  const instance = new WebAssembly.Instance(module, {
    env: {
      wasm_on_url: () => 0,
      wasm_on_message_begin: () => 0,
      wasm_on_status: (_p: number, _ptr: number, length: number) => events().onStatus(length),
      wasm_on_header_field: (_p: number, ptr: number, length: number) => events().onHeaderField(textAt(ptr, length)),
      wasm_on_header_value: (_p: number, ptr: number, length: number) => events().onHeaderValue(textAt(ptr, length)),
      wasm_on_headers_complete: (_p: number, status: number) => events().onHeadersComplete(status),
      wasm_on_body: (_p: number, ptr: number, length: number) => events().onBody(at(ptr, length)),
      wasm_on_message_complete: () => events().onMessageComplete(),
    },
  });
  return instance.exports as unknown as LlhttpExports;
}

let llhttp: LlhttpExports | undefined;

/** How one execute ended: parsed, the answer switched protocols (101), or a parse error. */
export type ParseStep = 'parsed' | 'upgrade' | ParseError;

/** One response's parser: feed it the connection's bytes; free it once, when done. */
export class ResponseParser {
  readonly #events: ParserEvents;
  readonly #llhttp: LlhttpExports;
  #ptr: number;

  constructor(events: ParserEvents) {
    this.#events = events;
    this.#llhttp = llhttp ??= instantiate();
    this.#ptr = this.#llhttp.llhttp_alloc(constants.TYPE.RESPONSE);
  }

  execute(chunk: Buffer): ParseStep {
    const wasm = this.#llhttp;
    if (chunk.length > bufferSize) {
      if (bufferPtr !== 0) wasm.free(bufferPtr);
      bufferSize = Math.ceil(chunk.length / 4096) * 4096;
      bufferPtr = wasm.malloc(bufferSize);
    }
    // The view goes stale when the memory grows (a new ArrayBuffer) or the buffer moved.
    if (
      bufferView?.buffer !== wasm.memory.buffer ||
      bufferView.byteOffset !== bufferPtr ||
      bufferView.byteLength !== bufferSize
    ) {
      bufferView = new Uint8Array(wasm.memory.buffer, bufferPtr, bufferSize);
    }
    bufferView.set(chunk);
    return this.#ran(() => wasm.llhttp_execute(this.#ptr, bufferPtr, chunk.length), chunk);
  }

  /** The connection ended: a body that runs to the close is complete now, any other is not. */
  finish(): ParseStep {
    return this.#ran(() => this.#llhttp.llhttp_finish(this.#ptr), undefined);
  }

  free(): void {
    if (this.#ptr === 0) return;
    this.#llhttp.llhttp_free(this.#ptr);
    this.#ptr = 0;
  }

  #ran(step: () => number, chunk: Buffer | undefined): ParseStep {
    if (this.#ptr === 0) return 'parsed';
    let code: number;
    try {
      current = this.#events;
      chunkRef = chunk;
      code = step();
    } finally {
      current = undefined;
      chunkRef = undefined;
    }
    if (code === okCode) return 'parsed';
    if (code === upgradeCode) return 'upgrade';
    return this.#error(code);
  }

  #error(code: number): ParseError {
    const wasm = this.#llhttp;
    const ptr = wasm.llhttp_get_error_reason(this.#ptr);
    const bytes = new Uint8Array(wasm.memory.buffer, ptr);
    const reason = ptr === 0 ? '' : Buffer.from(wasm.memory.buffer, ptr, bytes.indexOf(0)).toString('latin1');
    return Object.assign(new Error(`Parse Error: ${reason}`), {
      code: `HPE_${errorNames.get(code) ?? String(code)}`,
      reason,
    });
  }
}
