// Renders a view the way the window does: inside the agent provider and a navigation context
// whose navigate() the test can inspect. navigate() also moves the place, so a view that reads
// its selection from the place (the checks view) behaves as in the window.
import { render, type RenderResult } from '@testing-library/react';
import { useState, type ReactElement } from 'react';
import { vi } from 'vitest';
import { AgentProvider } from '../../src-renderer/state/agent-context.tsx';
import { NavigationContext, type Navigation, type Place } from '../../src-renderer/state/navigation.tsx';
import type { FakeBridge } from './fake-bridge.ts';

type Ui = ReactElement | ((place: Place) => ReactElement);

function Host({
  ui,
  navigate,
  setFlash,
  start,
}: {
  ui: Ui;
  navigate: (place: Place) => void;
  setFlash: (message: string | undefined) => void;
  start: Place;
}) {
  const [place, setPlace] = useState<Place>(start);
  const navigation: Navigation = {
    place,
    navigate: (next) => {
      navigate(next);
      setPlace(next);
    },
    flash: undefined,
    setFlash,
  };
  return (
    <NavigationContext.Provider value={navigation}>
      {typeof ui === 'function' ? ui(place) : ui}
    </NavigationContext.Provider>
  );
}

export function renderView(
  ui: Ui,
  bridge: FakeBridge,
  start: Place = { view: 'overview' },
): RenderResult & { navigate: ReturnType<typeof vi.fn>; setFlash: ReturnType<typeof vi.fn> } {
  const navigate = vi.fn();
  const setFlash = vi.fn();
  const result = render(
    <AgentProvider bridge={bridge}>
      <Host ui={ui} navigate={navigate} setFlash={setFlash} start={start} />
    </AgentProvider>,
  );
  return { ...result, navigate, setFlash };
}
