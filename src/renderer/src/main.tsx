import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { applyImagePolicy, useRemoteImages } from './stores/remote-images';
import './styles.css';

// Before anything renders: with remote images off, the page may fetch images only from itself.
applyImagePolicy(useRemoteImages.getState().enabled);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
