// The source tree read as a house: files as rooms, relative imports as arrows. Pure: it reads
// files and TypeScript's own import scanner, runs nothing of the project.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const repoRoot = resolve(import.meta.dirname, '../..');

/** Every .ts/.tsx file under dir (repo-relative paths), sorted. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string): void => {
    for (const name of readdirSync(abs).sort()) {
      const path = join(abs, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(relative(repoRoot, path));
    }
  };
  walk(join(repoRoot, dir));
  return out;
}

/** The repo-relative files a source file imports (relative specifiers only; type imports too). */
export function importsOf(file: string): string[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => relative(repoRoot, resolve(repoRoot, dirname(file), spec)));
}

/** Every import circle among files (each reported once, as the path that closes it). */
export function importCircles(files: readonly string[]): string[][] {
  const known = new Set(files);
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => known.has(t))]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      const seen = state.get(next);
      if (seen === 'open') circles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (seen === undefined) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return circles;
}

export function lineCount(file: string): number {
  return readFileSync(join(repoRoot, file), 'utf8').split('\n').length;
}
