/**
 * The header's Recharge dialog and user menu (with Zag's menu, dialog, focus trap and positioning code)
 * load after the first paint; until then a stand-in button with the same look, name and
 * popup role shows. Clicking it (or Arrow Down/Up on the menu's) loads the real control at once and opens it.
 */
import { useState, type KeyboardEvent } from 'react';
import type { User } from '@/domain/entities.ts';
import { deferredModule, useDeferredModule, type DeferredModule } from '@/components/ui/deferred-module.ts';
import { RechargeButton, UserMenuButton, type ControlStart } from './header-buttons.tsx';

const rechargeDialog = deferredModule(() => import('./recharge-dialog.tsx'));
const userMenu = deferredModule(() => import('./user-menu.tsx'));

/**
 * The real control's module once loaded, how it should start, and the stand-in's props until then.
 * While a press on the stand-in is in progress the stand-in stays, even if the module arrives meanwhile:
 * a button replaced between the pointer going down and coming up gets no click, and the user would have
 * to click again.
 */
function useDeferredControl<T>(deferred: DeferredModule<T>) {
  const module = useDeferredModule(deferred);
  const [start, setStart] = useState<ControlStart>({ open: false, focus: false });
  const [pressed, setPressed] = useState(false);
  const open = () => {
    setStart({ open: true, focus: true });
    deferred.load();
  };
  const standIn = {
    'aria-expanded': false,
    onClick: open,
    onPointerDown: () => {
      setPressed(true);
      // The click (if the press ends on the button) comes right after the pointer is released, in the same
      // task: end the press after it.
      const press = new AbortController();
      const release = () => {
        press.abort(); // whichever of the two ends the press removes both listeners
        setTimeout(() => setPressed(false));
      };
      window.addEventListener('pointerup', release, { signal: press.signal });
      window.addEventListener('pointercancel', release, { signal: press.signal });
    },
    onFocus: () => setStart((current) => ({ ...current, focus: true })),
    onBlur: () => setStart((current) => ({ ...current, focus: false })),
  };
  return { module: pressed ? undefined : module, start, open, standIn };
}

export function RechargeControl() {
  const { module, start, standIn } = useDeferredControl(rechargeDialog);
  return module ? <module.RechargeDialog start={start} /> : <RechargeButton aria-haspopup="dialog" {...standIn} />;
}

export function UserMenuControl({ user }: { user: User }) {
  const { module, start, open, standIn } = useDeferredControl(userMenu);
  // Like Menu.Trigger: Arrow Down/Up open the menu too.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    open();
  };
  return module ? (
    <module.UserMenu user={user} start={start} />
  ) : (
    <UserMenuButton user={user} aria-haspopup="menu" onKeyDown={onKeyDown} {...standIn} />
  );
}
