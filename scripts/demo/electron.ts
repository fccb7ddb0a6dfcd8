// Whether the desktop app can be opened: the electron package with its binary downloaded, and
// the built main process. Only looked up, never imported: `import 'electron'` under plain Node
// tries to download the binary.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function electronBinary(root: string): string | undefined {
  if (!existsSync(join(root, 'dist', 'main', 'electron', 'main.js'))) return undefined;
  try {
    const packageDir = dirname(createRequire(join(root, 'package.json')).resolve('electron/package.json'));
    const pathFile = join(packageDir, 'path.txt');
    if (!existsSync(pathFile)) return undefined;
    const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}
