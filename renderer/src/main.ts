// Placeholder entry; the screens arrive next.
import { KIOSK_CSP } from '../../src/contract.js';
document.body.dataset.csp = String(KIOSK_CSP.length);
