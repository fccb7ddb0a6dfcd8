// The one way the window reaches the agent: put there by the preload (desktop) or by
// bridge/install.ts (web dashboard).
import type { AgentBridge } from '../src-main/ipc/contract.ts';

declare global {
  interface Window {
    agent: AgentBridge;
  }
}
