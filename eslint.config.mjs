// Lint run by `npm test` (`npm run lint`: Prettier's check first, then this): the type-aware rules that
// catch what the compiler does not (a promise nobody awaits, an `any` leaking through a boundary), and
// lines of at most 120 columns. Prettier wraps code at 120; a longer line is then only one string
// (a message, a test's name, SQL), which reads and greps better whole than cut.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-artifacts/**', 'release/**', '**/*.d.ts'] },
  {
    files: ['src/**/*.ts', 'src/**/*.cts', 'test/**/*.ts', 'renderer/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.cts', 'test/**/*.ts', 'renderer/**/*.ts', 'scripts/**/*.mjs', 'scripts/**/*.cjs'],
    rules: {
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
  },
  {
    // The build and packaging scripts are plain JavaScript outside the TypeScript projects: the
    // promise rules with the types TypeScript infers for them.
    files: ['scripts/**/*.mjs', 'scripts/**/*.cjs', 'eslint.config.mjs'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: ['scripts/tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // vitest's asymmetric matchers (expect.any, expect.stringMatching, ...) are typed `any` by design:
    // putting one in an expected object is no leak of an untyped value.
    files: ['test/**/*.ts', 'renderer/test/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
);
