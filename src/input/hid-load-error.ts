import path from 'node:path';

/**
 * The libraries node-hid 3.4.0's Linux prebuilds link against (`readelf -d` NEEDED on
 * prebuilds/HID_hidraw-linux-x64/node-napi-v4.node: the hidraw build needs libudev *and* libusb),
 * and the Debian package that provides each.
 */
const DEBIAN_PACKAGES: Readonly<Record<string, string>> = {
  'libusb-1.0.so.0': 'libusb-1.0-0',
  'libudev.so.1': 'libudev1',
  'libstdc++.so.6': 'libstdc++6',
  'libgcc_s.so.1': 'libgcc-s1',
};

/** Which library an undefined symbol was expected from, by its prefix. */
const SYMBOL_LIBRARIES: ReadonlyArray<[RegExp, string]> = [
  [/^libusb_/, 'libusb-1.0.so.0'],
  [/^udev_/, 'libudev.so.1'],
];

export const HID_UNAVAILABLE = 'cannot use USB HID readers';

/** node-hid cannot be used on this machine; the message is one line an operator can act on. */
export class HidUnavailableError extends Error {
  override name = 'HidUnavailableError';
}

// glibc: "libusb-1.0.so.0: cannot open shared object file: No such file or directory" (the name as
// needed when not found; the full path when found but unusable, e.g. "…: Permission denied").
const GLIBC_OPEN = /^(\S+): cannot open shared object file: (.+)$/;
// musl (the -musl prebuilds): "Error loading shared library libusb-1.0.so.0: No such file or directory (needed by …)"
const MUSL_OPEN = /^Error loading shared library (\S+): (.+?) \(needed by \S+\)$/;
// glibc, a file found but not loadable: "/x/libusb-1.0.so.0: file too short", "…: invalid ELF
// header", "…: wrong ELF class: ELFCLASS32", "/x/node-napi-v4.node: undefined symbol: libusb_init".
const GLIBC_BAD_FILE = /^(\/\S+): (.+)$/;

const isSharedLibrary = (name: string) => /\.so(\.\d+)*$/.test(name);

function packageHint(lib: string): string | null {
  const pkg = DEBIAN_PACKAGES[lib];
  return pkg ? `Debian package ${pkg}` : null;
}

function missing(lib: string, reason: string): string {
  const hint = packageHint(lib) ?? "a library node-hid's native binding needs";
  if (/no such file or directory/i.test(reason)) return `${lib} is missing (${hint})`;
  return `${lib} cannot be opened: ${reason} (${hint})`;
}

function badFile(file: string, reason: string): string {
  const name = path.basename(file);
  if (isSharedLibrary(name)) {
    const hint = packageHint(name);
    return `${name} cannot be loaded (${file}: ${reason}${hint ? `; ${hint}` : ''})`;
  }
  // The binding itself: a missing symbol says which library is too old.
  const symbol = /^undefined symbol: (\S+)/.exec(reason)?.[1];
  const lib = symbol && SYMBOL_LIBRARIES.find(([re]) => re.test(symbol))?.[1];
  const hint = lib ? `; ${lib} may be too old: update ${packageHint(lib)}` : '';
  return `node-hid's native binding cannot be loaded (${file}: ${reason}${hint})`;
}

/**
 * One line saying why node-hid's native binding could not be loaded — which library is missing or
 * broken and the Debian package that provides it — or null when `e` is not such a failure.
 */
export function describeHidLoadError(e: unknown): string | null {
  const { message, code } = (typeof e === 'object' && e !== null ? e : {}) as { message?: unknown; code?: unknown };
  if (typeof message !== 'string') return null;
  const first = message.split('\n')[0].trim();
  // pkg-prebuilds, when there is no prebuild for this platform (its message lists every path tried).
  if (/^Failed to find binding for /.test(first))
    return `${HID_UNAVAILABLE}: node-hid has no native binding for this system (${first})`;
  if (code !== 'ERR_DLOPEN_FAILED') return null;
  const open = GLIBC_OPEN.exec(first) ?? MUSL_OPEN.exec(first);
  if (open) {
    const file = open[1];
    const reason = open[2];
    // The binding file itself unreadable is not a missing library.
    if (!isSharedLibrary(path.basename(file)))
      return `${HID_UNAVAILABLE}: ${badFile(file, `cannot open shared object file: ${reason}`)}`;
    return `${HID_UNAVAILABLE}: ${missing(path.basename(file), reason)}`;
  }
  const bad = GLIBC_BAD_FILE.exec(first);
  if (bad) return `${HID_UNAVAILABLE}: ${badFile(bad[1], bad[2])}`;
  return `${HID_UNAVAILABLE}: node-hid's native binding cannot be loaded (${first})`;
}
