import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createQueryClient } from './app';
import { initI18n } from './i18n';
import './styles.css';

initI18n();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App client={createQueryClient()} />
  </StrictMode>,
);
