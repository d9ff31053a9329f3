// The entry stays small: boot.ts starts the route chunk and the first screen's API reads at once, in
// parallel with the download of React, Chakra and the app shell (root.tsx), and the app renders when both
// are in (or after boot.ts's time limit), so the first paint is the finished page.
import { bootReady } from './app/boot.ts';

const root = import('./app/root.tsx');
void Promise.all([root, bootReady]).then(([{ mount }]) => mount(document.getElementById('root')!));
