// `npm run api:types`: writes src/lib/api/schema.d.ts, the SPA's request and answer types, from the API's
// OpenAPI document (generated offline, as GET /api/openapi.json serves it). Run it after changing a route.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API_TYPES_FILE, apiTypes, writeApiDocument } from './lib/api-document.js';

const folder = mkdtempSync(path.join(tmpdir(), 'openapi-'));
try {
  const file = path.join(folder, 'openapi.json');
  await writeApiDocument(file);
  writeFileSync(API_TYPES_FILE, await apiTypes(file));
  console.log(`Wrote ${path.relative(process.cwd(), API_TYPES_FILE)}`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
