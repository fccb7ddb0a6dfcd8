// Lint enforces the boundaries design.md asks for: strict types, no floating promises, no `any`,
// type-only imports, and an agent that never imports electron.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';

// Node's built-in modules, with and without the node: prefix.
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const importedBuiltins = new Set(['path', 'node:path', 'events', 'node:events']);

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
    // resident: 3.5 MB of the command at 20 checks and ~2 MB more in the probe thread, which loads
    // it all again (issue 26; test/agent/builtin-loading.int.test.ts). Type imports load nothing.
    // node:path and node:events stay imports: their facades read nothing lazy, and their types
    // declare their functions as methods, which unbound-method would not let us take apart.
    files: ['src-main/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `ImportDeclaration[importKind!='type'][source.value=/^(${[...builtins]
            .filter((name) => !importedBuiltins.has(name))
            .map((name) => name.replace(/[/.]/g, '\\$&'))
            .join('|')})$/]`,
          message:
            "Load Node's built-in modules with process.getBuiltinModule('node:…') (a type import is fine): an import evaluates every export of the module, lazy ones included (eslint.config.js says what that costs).",
        },
        {
          selector: 'ImportExpression[source.value=/^node:/]',
          message: "Load Node's built-in modules with process.getBuiltinModule('node:…'), not import().",
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
