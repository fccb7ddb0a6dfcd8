// electron-builder afterPack hook: flips Electron's fuses in the packaged binary, so that the
// shipped app cannot be turned into a general Node runtime (ELECTRON_RUN_AS_NODE, NODE_OPTIONS,
// --inspect) and only loads its own app.asar. The offline smoke test packages a stub instead
// of Electron; a binary without the fuse wire is reported and skipped, never "fixed".
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FuseV1Options, FuseVersion, type FuseConfig } from '@electron/fuses';
import type { AfterPackContext } from 'electron-builder';

/** Marks the fuse wire inside every Electron binary since 12 (from @electron/fuses). */
const fuseSentinel = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

export const fuses: FuseConfig = {
  version: FuseVersion.V1,
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  // The app uses app://, never file://.
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  // EnableEmbeddedAsarIntegrityValidation stays off until verified on signed macOS and Windows
  // builds: with integrity data missing or stale, the app would refuse to start.
};

/** The file that holds the fuse wire: the executable, or on macOS the Electron framework. */
export function fuseBinary(
  context: Pick<AfterPackContext, 'appOutDir' | 'electronPlatformName'> & {
    packager: { appInfo: { productFilename: string } };
  },
): string {
  const { appOutDir, electronPlatformName, packager } = context;
  const name = packager.appInfo.productFilename;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') {
    return join(
      appOutDir,
      `${name}.app`,
      'Contents',
      'Frameworks',
      'Electron Framework.framework',
      'Electron Framework',
    );
  }
  if (electronPlatformName === 'win32') return join(appOutDir, `${name}.exe`);
  const executable =
    'executableName' in packager && typeof packager.executableName === 'string' ? packager.executableName : name;
  return join(appOutDir, executable);
}

export async function hasFuseWire(file: string): Promise<boolean> {
  try {
    return (await readFile(file)).includes(fuseSentinel);
  } catch {
    return false;
  }
}

export default async function afterPack(context: AfterPackContext): Promise<void> {
  const binary = fuseBinary(context);
  if (!(await hasFuseWire(binary))) {
    process.stdout.write(
      `  • skipping Electron fuses: ${binary} has no fuse wire (a stub Electron, as in the offline packaging smoke test)\n`,
    );
    return;
  }
  await context.packager.addElectronFuses(context, {
    ...fuses,
    resetAdHocDarwinSignature: context.electronPlatformName === 'darwin',
  });
  process.stdout.write(
    `  • Electron fuses set in ${binary}: RunAsNode, NODE_OPTIONS and --inspect off; app loaded only from app.asar\n`,
  );
}
