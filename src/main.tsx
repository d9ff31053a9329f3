// The entry stays small. Creating the router starts the first screen's chunk and API reads at once, in
// parallel with the download of React, Chakra and the app shell (root.tsx); the app renders when both are
// in, so the first paint is the finished page.
import './lib/zod-jitless.ts';
import { createAppRouter, whenInitialized } from './app/router.tsx';

const router = createAppRouter();
const root = import('./app/root.tsx');
void Promise.all([root, whenInitialized(router)]).then(([{ mount }]) =>
  mount(document.getElementById('root')!, router),
);
