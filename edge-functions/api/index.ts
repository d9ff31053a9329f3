// Entry point of the `api` edge function (Supabase: `supabase functions deploy api`).
import '../_shared/background-errors.ts';
import { createApp } from './app.ts';

Deno.serve(createApp().fetch);
