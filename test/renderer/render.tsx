// Renders a view the way the window does: inside the agent provider and a navigation context
// whose navigate() the test can inspect.
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { AgentProvider } from '../../src-renderer/state/agent-context.tsx';
import { NavigationContext, type Navigation } from '../../src-renderer/state/navigation.tsx';
import type { FakeBridge } from './fake-bridge.ts';

export function renderView(ui: ReactElement, bridge: FakeBridge): RenderResult & { navigate: ReturnType<typeof vi.fn>; setFlash: ReturnType<typeof vi.fn> } {
  const navigate = vi.fn();
  const setFlash = vi.fn();
  const navigation: Navigation = { place: { view: 'overview' }, navigate, flash: undefined, setFlash };
  const result = render(
    <AgentProvider bridge={bridge}>
      <NavigationContext.Provider value={navigation}>{ui}</NavigationContext.Provider>
    </AgentProvider>,
  );
  return { ...result, navigate, setFlash };
}
