// Lint enforces the boundaries design.md asks for: strict types, no floating promises, no `any`,
// type-only imports, and an agent that never imports electron.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';

// Node's built-in modules that src-main loads with process.getBuiltinModule (see its rule below),
// with and without the node: prefix, as one pattern for import declarations and import() alike.
const importedBuiltins = new Set(['path', 'events']);
// Modules only reachable with the prefix (node:sqlite) are listed with it, the others without.
const loadedBuiltins = builtinModules
  .filter((name) => !importedBuiltins.has(name))
  .map((name) => (name.startsWith('node:') ? name : `(node:)?${name}`).replace(/[/.]/g, '\\$&'));
const builtinPattern = `/^(${loadedBuiltins.join('|')})$/`;

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-artifacts/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: globals.node,
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-confusing-void-expression': 'off',
    },
  },
  {
    files: ['src-main/agent/**', 'src-main/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The agent runs under plain Node: never import electron.' },
            { name: 'electron-store', message: 'The agent runs under plain Node: never import electron-store.' },
          ],
        },
      ],
    },
  },
  {
    // The process loads Node's built-in modules through process.getBuiltinModule, never with a value
    // import. An import makes Node build the module's ESM facade, which reads every export, lazy ones
    // included: node:http's WebSocket loads Node's own bundled undici, node:crypto's webcrypto its
    // Web Crypto, node:fs its promises and readline. None of that is used here, yet it stayed
    // resident, in the command and again in the probe thread (figures: docs/architecture.md, the
    // memory paragraph; test/agent/builtin-loading.int.test.ts). Type imports load nothing.
    // node:path and node:events stay imports: their facades read nothing lazy, and their types
    // declare their functions as methods, which unbound-method would not let us take apart.
    files: ['src-main/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `ImportDeclaration[importKind!='type'][source.value=${builtinPattern}]`,
          message:
            "Load Node's built-in modules with process.getBuiltinModule('node:…') (a type import is fine): an import evaluates every export of the module, lazy ones included (eslint.config.js says why).",
        },
        {
          selector: `ImportExpression[source.value=${builtinPattern}]`,
          message: "Load Node's built-in modules with process.getBuiltinModule('node:…'), not import().",
        },
        {
          // undici's entry point loads all of undici, fetch and WebSocket included (wire/undici-parts.ts says what it cost).
          selector: "ImportDeclaration[importKind!='type'][source.value='undici']",
          message:
            "Take undici's classes from src-main/agent/wire/undici-parts.ts (a type import is fine): undici's entry point loads all of undici.",
        },
      ],
    },
  },
  {
    files: ['src-renderer/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
