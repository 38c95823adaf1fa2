/**
 * The bridge contract: every call the kiosk screens may make and every event they receive, as zod
 * schemas. The single source for the Electron IPC handlers (main), the preload's contextBridge
 * object, the web bridge (loopback HTTP) and the renderer. Imports only zod, so the renderer can
 * type-check against it without Node or the agent. The handlers (src/agent/bridge-handlers.ts) are typed
 * against it, so the compiler checks that the agent's own result types fit these schemas.
 *
 * Inputs are strict objects with bounded strings: a wrong-shaped message is refused whole, with a
 * typed error, before it reaches the agent. Outputs are plain (non-strict) objects: parsing an
 * output strips whatever the schema does not name, so nothing beyond the contract leaves the agent.
 *
 * Split by subject into src/contract/; this file re-exports them all, so importers keep one name.
 */
export * from './contract/admin-codes.js';
export * from './contract/admin.js';
export * from './contract/afd-audit.js';
export * from './contract/calls.js';
export * from './contract/csp.js';
export * from './contract/punch.js';
export * from './contract/punch-lists.js';
export * from './contract/screen-settings.js';
export * from './contract/status.js';
export * from './contract/pin-reset.js';
export * from './contract/screen-code.js';
export * from './contract/photo.js';
export * from './contract/presence.js';
