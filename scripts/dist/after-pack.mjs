// electron-builder's afterPack hook (electron-builder.yml): runs on the unpacked app, before any
// target (deb, AppImage) wraps it. Order matters: the native check needs ELECTRON_RUN_AS_NODE, which
// the fuses then switch off for good.
import path from 'node:path';
import fuses from '@electron/fuses';
import { checkNativeModules } from './check-native.mjs';

const { flipFuses, getCurrentFuseWire, FuseVersion, FuseV1Options } = fuses;

/**
 * The fuses the kiosk ships with (issue 13, issue 25): no Node mode, no NODE_OPTIONS or --inspect,
 * app code only from app.asar, and file:// pages only a browser's file:// rights.
 */
export const KIOSK_FUSES = {
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  // Checked by Electron on macOS and Windows; on Linux the fuse is set but Electron does not validate
  // (the package's own file permissions are what protects app.asar there).
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  // file:// pages get no more than Chromium gives them (no fetch of other file:// URLs, no service
  // workers, no universal access for file:// frames). The renderer needs none of it: a classic
  // script, a stylesheet and <audio> sources, all from its own folder (test/e2e/electron-renderer
  // runs it from file:// in plain Chromium, which never grants those rights).
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
};

/** Fuse name → on/off as read from a binary, for the build log and the package test. */
export async function readFuses(executable) {
  const wire = await getCurrentFuseWire(executable);
  const out = {};
  for (const [index, state] of Object.entries(wire)) {
    if (index === 'version') continue;
    const name = FuseV1Options[Number(index)];
    if (name !== undefined) out[name] = state === 0x31 ? 'on' : state === 0x30 ? 'off' : `0x${Number(state).toString(16)}`;
  }
  return out;
}

export default async function afterPack(context) {
  const executable = path.join(context.appOutDir, context.packager.executableName);
  const resourcesDir = path.join(context.appOutDir, 'resources');
  const seen = checkNativeModules({ executable, resourcesDir });
  console.log(`  • native modules load in the packaged runtime (${seen.runtime}, ABI ${seen.modules}): SQLite ${seen.sqlite.v}, ${seen.hidDevices} HID device(s) visible`);
  await flipFuses(executable, { version: FuseVersion.V1, ...KIOSK_FUSES });
  const now = await readFuses(executable);
  for (const [index, wanted] of Object.entries(KIOSK_FUSES)) {
    const name = FuseV1Options[Number(index)];
    if (now[name] !== (wanted ? 'on' : 'off')) throw new Error(`after-pack: fuse ${name} reads ${now[name]} after flipping, expected ${wanted ? 'on' : 'off'}`);
  }
  console.log(`  • fuses: ${Object.entries(now).map(([k, v]) => `${k}=${v}`).join(' ')}`);
}
