/** The kiosk screen's entry point (bundled by esbuild into dist/renderer/app.js). */
import './zod-setup.js';
import { App } from './app.js';
import { connectClient } from './bridge.js';

async function boot(): Promise<void> {
  const root = document.getElementById('app') ?? document.body.appendChild(document.createElement('main'));
  new App(await connectClient(), root).start();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => void boot(), { once: true });
else void boot();
