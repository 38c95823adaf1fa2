import { describe, expect, it } from 'vitest';
import { describeHidLoadError } from '../../src/input/hid-load-error.js';

/** The error Node throws when dlopen fails: a plain Error with code ERR_DLOPEN_FAILED. */
function dlopenError(message: string): Error {
  return Object.assign(new Error(message), { code: 'ERR_DLOPEN_FAILED' });
}

const BINDING = '/opt/timeclock/node_modules/node-hid/prebuilds/HID_hidraw-linux-x64/node-napi-v4.node';

describe('describeHidLoadError', () => {
  // Messages as Node 20 on Debian 12 printed them, loading node-hid 3.4.0's hidraw prebuild.
  it.each([
    [
      'libusb-1.0.so.0: cannot open shared object file: No such file or directory',
      'libusb-1.0.so.0 is missing (Debian package libusb-1.0-0)',
    ],
    [
      'libudev.so.1: cannot open shared object file: No such file or directory',
      'libudev.so.1 is missing (Debian package libudev1)',
    ],
    // a library of a library (e.g. libusb's own dependency) that no known package provides
    [
      'libabsent.so.3: cannot open shared object file: No such file or directory',
      "libabsent.so.3 is missing (a library node-hid's native binding needs)",
    ],
    [
      '/tmp/x/libusb-1.0.so.0: file too short',
      'libusb-1.0.so.0 cannot be loaded (/tmp/x/libusb-1.0.so.0: file too short; Debian package libusb-1.0-0)',
    ],
    [
      '/tmp/x/libusb-1.0.so.0: invalid ELF header',
      'libusb-1.0.so.0 cannot be loaded (/tmp/x/libusb-1.0.so.0: invalid ELF header; Debian package libusb-1.0-0)',
    ],
    [
      `${BINDING}: undefined symbol: libusb_init`,
      `node-hid's native binding cannot be loaded (${BINDING}: undefined symbol: libusb_init; libusb-1.0.so.0 may be too old: update Debian package libusb-1.0-0)`,
    ],
    [`${BINDING}: file too short`, `node-hid's native binding cannot be loaded (${BINDING}: file too short)`],
    [
      `${BINDING}: cannot open shared object file: Permission denied`,
      `node-hid's native binding cannot be loaded (${BINDING}: cannot open shared object file: Permission denied)`,
    ],
    // musl's loader (the -musl prebuilds)
    [
      `Error loading shared library libusb-1.0.so.0: No such file or directory (needed by ${BINDING})`,
      'libusb-1.0.so.0 is missing (Debian package libusb-1.0-0)',
    ],
    [
      `Module did not self-register: '${BINDING}'.`,
      `node-hid's native binding cannot be loaded (Module did not self-register: '${BINDING}'.)`,
    ],
  ])('%s', (message, expected) => {
    expect(describeHidLoadError(dlopenError(message))).toBe(`cannot use USB HID readers: ${expected}`);
  });

  it('no prebuild for this platform (pkg-prebuilds) is one line, without the list of paths tried', () => {
    const e = new Error(
      `Failed to find binding for HID_hidraw\nTried paths:\n - /x/build/Release/HID_hidraw.node\n - ${BINDING}`,
    );
    expect(describeHidLoadError(e)).toBe(
      'cannot use USB HID readers: node-hid has no native binding for this system (Failed to find binding for HID_hidraw)',
    );
  });

  it('is null for anything that is not a load failure', () => {
    expect(describeHidLoadError(new Error('could not read from HID device'))).toBeNull();
    // the same text without Node's dlopen code is not trusted to be a loader message
    expect(
      describeHidLoadError(new Error('libusb-1.0.so.0: cannot open shared object file: No such file or directory')),
    ).toBeNull();
    expect(describeHidLoadError('libusb-1.0.so.0: cannot open shared object file')).toBeNull();
    expect(describeHidLoadError(undefined)).toBeNull();
  });
});
