// The deployed `api` edge function: edge-functions/api/index.ts and everything it imports (src/domain and
// the npm packages) bundled by Deno into ONE self-contained file, in the layout `supabase functions deploy
// api` expects. Without Docker the CLI deploys through the Management API, which cannot upload a function
// that imports from parent directories; the bundle imports nothing but Deno's `node:` built-ins.
import { bin, run, toolEnv } from './processes.js';

export const FUNCTION_BUNDLE = 'supabase/functions/api/index.js';

/**
 * Bundles the function (packages resolved offline from the npm-installed node_modules). `deno bundle`
 * runs esbuild, which Deno fetches once from the npm registry into its own cache.
 */
export function buildFunctionBundle() {
  return run(
    bin('deno'),
    [
      'bundle',
      '--quiet',
      '--node-modules-dir=manual',
      '--packages',
      'bundle',
      '--platform',
      'deno',
      '--output',
      FUNCTION_BUNDLE,
      'edge-functions/api/index.ts',
    ],
    { env: toolEnv, capture: true },
  );
}
