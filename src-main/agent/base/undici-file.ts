// One of undici's own files, by its path inside the package ("lib/llhttp/constants.js"). The agent
// takes undici's parts file by file: its entry point loads all of undici (wire/undici-parts.ts),
// and the probes read answers with its llhttp build (probes/llhttp.ts).
const { createRequire } = process.getBuiltinModule('node:module');
const requireHere = createRequire(import.meta.url);

export const undiciFile = (path: string): unknown => requireHere(`undici/${path}`);
