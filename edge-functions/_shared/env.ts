/**
 * The edge function's configuration, read once from this process's environment (config.ts says what each
 * variable means). What it had to ignore is logged once; what it refuses stops the function from starting.
 */
import { readConfig, type Config } from './config.ts';

const { config, warnings } = readConfig((name) => Deno.env.get(name));
for (const msg of warnings) console.warn(JSON.stringify({ level: 'warn', msg }));

export const env = config;
export type Env = Config;
