// The parts of undici the API client uses, loaded file by file. undici's own entry point loads all
// of undici: fetch and its web classes, WebSocket, EventSource, the cache stores, the mock
// agents and every interceptor, none of which the agent uses, and it kept their source text
// (1.9 MB) and objects in the V8 heap of every agent. The agent at 20 checks is ~2.5 MB smaller
// for it (issue 26; figures in docs/architecture.md, the memory paragraph; a lint rule in
// eslint.config.js keeps it). The probes read answers with undici's llhttp the same way
// (probes/llhttp.ts).
import type * as Undici from 'undici';
import { undiciFile } from '../base/undici-file.ts';

const part = (file: string): unknown => undiciFile(`lib/${file}`);

const Dispatcher = part('dispatcher/dispatcher.js') as typeof Undici.Dispatcher;
const api = part('api/index.js') as Record<'request' | 'stream' | 'pipeline' | 'upgrade' | 'connect', unknown>;
// As undici's entry point does: a dispatcher's request() and connect() are these, and ProxyAgent
// opens its tunnels with connect().
Object.assign(Dispatcher.prototype, api);

export const Agent = part('dispatcher/agent.js') as typeof Undici.Agent;
export const Pool = part('dispatcher/pool.js') as typeof Undici.Pool;
export const ProxyAgent = part('dispatcher/proxy-agent.js') as typeof Undici.ProxyAgent;
export const buildConnector = part('core/connect.js') as typeof Undici.buildConnector;
export const errors = part('core/errors.js') as typeof Undici.errors;
