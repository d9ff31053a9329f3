/**
 * Writes the API's OpenAPI document (GET /api/openapi.json) to the file named by the first argument, without
 * a server or a database: `npm test` lints it with `redocly lint` and checks the SPA's types (src/lib/api/schema.d.ts)
 * against it.
 */
import { createApp } from '../edge-functions/api/app.ts';

const [file] = Deno.args;
if (!file) throw new Error('Usage: deno run scripts/openapi-document.ts <file>');
const answer = await createApp().request('/api/openapi.json');
if (!answer.ok) throw new Error(`GET /api/openapi.json answered ${answer.status}`);
await Deno.writeTextFile(file, JSON.stringify(await answer.json(), null, 2));
// The app's database pool and live feed never connected, but their timers would keep the process alive.
Deno.exit(0);
