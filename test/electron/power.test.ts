// Sleep and wake from Electron's powerMonitor reach the agent (issue 10 §2).
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src-main/agent/base/log.ts';
import { setupPowerEvents } from '../../src-main/electron/power.ts';

describe('power events', () => {
  it('tells the agent once per resume, nothing on suspend', () => {
    const powerMonitor = new EventEmitter();
    let resumed = 0;
    setupPowerEvents({ powerMonitor, onResume: () => resumed++, log: silentLogger });
    powerMonitor.emit('suspend');
    expect(resumed).toBe(0);
    powerMonitor.emit('resume');
    expect(resumed).toBe(1);
  });
});
