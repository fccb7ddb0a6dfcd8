// The sandboxed preload: puts the typed bridge on `window.agent` and nothing else. A sandboxed
// preload can only require('electron'), so this file is bundled (vite.preload.config.ts) into a
// single CommonJS file, dist/main/preload.cjs, with the contract's channel names inside.
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './electron/preload-bridge.ts';

contextBridge.exposeInMainWorld('agent', createBridge(ipcRenderer));
