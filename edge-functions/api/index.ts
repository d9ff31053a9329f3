// Entry point of the `api` edge function. `npm run build:functions` bundles it, with everything it imports,
// into supabase/functions/api/index.js: the file `supabase functions deploy api` uploads and the tests run.
import '@shared/background-errors.ts';
import { createApp } from './app.ts';

// Supabase's edge runtime chooses the port itself; PORT lets the bundle's own test run it on a free one.
const port = Number(Deno.env.get('PORT') ?? 8000);
Deno.serve(
  { port, onListen: (address) => console.log(JSON.stringify({ level: 'info', msg: 'listening', port: address.port })) },
  createApp().fetch,
);
