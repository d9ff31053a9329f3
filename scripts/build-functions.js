// `npm run build:functions`: writes the deployable `api` function bundle (scripts/lib/function-bundle.js).
import { buildFunctionBundle, FUNCTION_BUNDLE } from './lib/function-bundle.js';

await buildFunctionBundle();
console.log(`Built ${FUNCTION_BUNDLE}`);
