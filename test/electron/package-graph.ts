// Reads a packaged app.asar the way Electron will load it: which files are there, and whether
// every import of the main process resolves inside it (relative files, builtins, or packages in
// its node_modules together with their own dependencies).
import { builtinModules } from 'node:module';
import { posix } from 'node:path';
import { extractFile, listPackage } from '@electron/asar';

export interface PackageGraph {
  files: Set<string>;
  read(file: string): string;
  /** Problems found walking from the entry; empty when everything resolves. */
  unresolved(entry: string): string[];
  /** Files reached from the entry, in visiting order. */
  reached: string[];
}

const builtins = new Set(builtinModules);

/** Module specifiers of ESM import/export statements and literal dynamic imports. */
export function esmImports(source: string): string[] {
  // Comments may mention imports; strings rarely do at statement starts.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const specs: string[] = [];
  const statement = /(?:^|[;\n])\s*(?:import|export)\s*(?:type\s+)?(?:[\w*${}\s,]*?\s*from\s*)?['"]([^'"]+)['"]/g;
  const dynamic = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const match of code.matchAll(statement)) if (match[1] !== undefined) specs.push(match[1]);
  for (const match of code.matchAll(dynamic)) if (match[1] !== undefined) specs.push(match[1]);
  return specs;
}

/** `require("x")` specifiers of a CommonJS file. */
export function cjsRequires(source: string): string[] {
  return [...source.matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g)].flatMap((m) =>
    m[1] === undefined ? [] : [m[1]],
  );
}

const packageName = (spec: string): string =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

export function openPackage(archive: string): PackageGraph {
  const files = new Set(listPackage(archive, { isPack: false }));
  const read = (file: string): string => extractFile(archive, file.replace(/^\//, '')).toString('utf8');
  const reached: string[] = [];

  /** Node's lookup: <dir>/node_modules/<name>, then each parent's. */
  function findPackage(name: string, fromDir: string): string | undefined {
    for (let dir = fromDir; ; dir = posix.dirname(dir)) {
      const candidate = posix.join(dir, 'node_modules', name);
      if (files.has(posix.join(candidate, 'package.json'))) return candidate;
      if (dir === '/') return undefined;
    }
  }

  function unresolved(entry: string): string[] {
    const problems: string[] = [];
    const seenFiles = new Set<string>();
    const seenPackages = new Set<string>();

    function checkPackage(dir: string, via: string): void {
      if (seenPackages.has(dir)) return;
      seenPackages.add(dir);
      const manifest = JSON.parse(read(posix.join(dir, 'package.json'))) as {
        dependencies?: Record<string, string>;
        optionalDependencies?: Record<string, string>;
      };
      const optional = new Set(Object.keys(manifest.optionalDependencies ?? {}));
      for (const dependency of Object.keys(manifest.dependencies ?? {})) {
        if (optional.has(dependency)) continue;
        const found = findPackage(dependency, dir);
        if (found === undefined)
          problems.push(`${dependency} (a dependency of ${dir}, reached from ${via}) is not in the package`);
        else checkPackage(found, via);
      }
    }

    function visit(file: string): void {
      if (seenFiles.has(file)) return;
      seenFiles.add(file);
      reached.push(file);
      for (const spec of esmImports(read(file))) {
        if (spec.startsWith('.')) {
          const target = posix.join(posix.dirname(file), spec);
          if (files.has(target)) visit(target);
          else problems.push(`${spec} imported by ${file} is not in the package`);
        } else if (spec.startsWith('node:') || builtins.has(spec) || spec === 'electron') {
          continue;
        } else {
          const dir = findPackage(packageName(spec), posix.dirname(file));
          if (dir === undefined) problems.push(`${spec} imported by ${file} is not in the package's node_modules`);
          else checkPackage(dir, file);
        }
      }
    }

    visit(entry);
    return problems;
  }

  return { files, read, unresolved, reached };
}
