import { describe, expect, it } from 'vitest';
import { panelShade, trayIconFile } from '../../src-main/electron/tray-state.ts';

describe('tray icon files', () => {
  it.each([
    { platform: 'darwin', dark: true, state: 'ok', file: 'okTemplate.png' },
    { platform: 'darwin', dark: false, state: 'error', file: 'errorTemplate.png' },
    { platform: 'linux', dark: false, state: 'warning', file: 'warning-dark.png' },
    { platform: 'win32', dark: false, state: 'paused', file: 'paused-light.png' },
    { platform: 'win32', dark: true, state: 'not-enrolled', file: 'not-enrolled-dark.png' },
  ] as const)('$platform dark=$dark $state → $file', ({ platform, dark, state, file }) => {
    expect(trayIconFile(state, platform, panelShade(platform, dark))).toBe(file);
  });
});
