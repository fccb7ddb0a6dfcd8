import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { installBridge } from './bridge/install.ts';
import { MissingToken } from './components/MissingToken.tsx';
import { AgentProvider } from './state/agent-context.tsx';
import './styles/base.css';
import './styles/parts.css';

const root = document.getElementById('root');
if (root !== null) {
  const status = installBridge();
  createRoot(root).render(
    <StrictMode>
      {status === 'ready' ? (
        <AgentProvider bridge={window.agent}>
          <App />
        </AgentProvider>
      ) : (
        <MissingToken />
      )}
    </StrictMode>,
  );
}
