// Where the built renderer is: dist/renderer under the package root. The root is found by
// walking up to our package.json, so the same code works from src-main (type stripping) and
// from dist/main (compiled), which sit at different depths.
import { dirname, join } from 'node:path';
const { existsSync, readFileSync } = process.getBuiltinModule('node:fs');

const packageName = 'uptime-agent';

export function packageRoot(from: string = import.meta.dirname): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === packageName) return dir;
      } catch {
        // an unreadable manifest is not ours: keep walking up
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The built renderer folder, or undefined when it has not been built (no index.html). */
export function rendererDir(root: string | undefined = packageRoot()): string | undefined {
  if (root === undefined) return undefined;
  const dir = join(root, 'dist', 'renderer');
  return existsSync(join(dir, 'index.html')) ? dir : undefined;
}
