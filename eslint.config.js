import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The SPA's import direction: shared code (components, lib, domain, config) → features → app. A feature never
// imports another feature; what two features need is shared code, or composed in src/app.
const features = readdirSync('src/features');
// The back office by what an admin does (matches, users, money, settings, risk, …): a domain may use another's
// parts (the match page shows the risk card), all of them use admin/shared, which uses none of them; the
// shell (layout, Chakra system, routes) composes them and none imports it.
const admin = './src/features/admin';
const adminDomains = readdirSync('src/features/admin', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !['shared', 'shell', 'testing'].includes(entry.name))
  .map((entry) => `${admin}/${entry.name}`);
const layers = [
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message:
      'A feature does not import another feature: move what both need to src/components, src/lib or src/domain, or compose them in src/app.',
  })),
  {
    target: `${admin}/shared`,
    from: adminDomains,
    message: 'Shared admin code does not import an admin domain: move what it needs to src/features/admin/shared.',
  },
  {
    target: adminDomains,
    from: [`${admin}/shell`, `${admin}/admin-app.tsx`],
    message: 'An admin domain does not import the back office shell.',
  },
  { target: './src/features', from: './src/app', message: 'Features do not import the app.' },
  {
    target: ['./src/components', './src/lib', './src/domain', './src/config'],
    from: ['./src/features', './src/app'],
    message: 'Shared code does not import features or the app.',
  },
];

/** a module specifier that climbs three or more folders (esquery's regex takes no '/': \x2F is one) */
const climbing = String.raw`/^(\.\.\x2F){3}/`;

export default tseslint.config(
  { ignores: ['dist', 'node_modules', '.data', 'supabase/.temp', 'supabase/functions', 'test-results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    // resolves `@/…` to src/ (tsconfig.json's paths, vite.config.ts's alias), so the zones see those imports
    settings: { 'import-x/resolver-next': [createNodeResolver({ alias: { '@': [path.resolve('src')] } })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layers }],
      'import-x/no-cycle': 'error',
    },
  },
  {
    // An import from another area names it from src (`@/lib/…`, `@/features/admin/shared/…`; in the API's
    // Deno code also `@shared/…` for edge-functions/_shared, deno.json's imports) instead of climbing to it:
    // a file moves without its imports changing, and a reader sees where a module lives. Within a folder and
    // its parent, relative imports stay.
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.ts', 'edge-functions/**/*.ts', 'scripts/**/*.{js,ts}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `:matches(ImportDeclaration, ImportExpression, ExportAllDeclaration, ExportNamedDeclaration) > Literal.source[value=${climbing}], CallExpression[callee.object.name='vi'] > Literal[value=${climbing}]`,
          message:
            'An import does not climb three or more folders: import from src by `@/…` (edge-functions/_shared by `@shared/…`).',
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.{js,ts}', 'tests/**/*.ts', 'edge-functions/**/*.ts', '*.config.{js,ts}'],
    languageOptions: { globals: { ...globals.node, Deno: 'readonly' } },
  },
);
