/** The kiosk screen's entry point (bundled by esbuild into dist/renderer/app.js). */
import './zod-setup.js';
import { App } from './app.js';
import { createClient } from './bridge.js';

function boot(): void {
  const root = document.getElementById('app') ?? document.body.appendChild(document.createElement('main'));
  new App(createClient(), root).start();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot, { once: true });
else boot();
