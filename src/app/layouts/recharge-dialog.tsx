/** The header's Recharge dialog 'Add Funds to Wallet' (loaded by header-controls.tsx); its form loads on first open. */
import { Suspense, lazy, useState } from 'react';
import { DialogShell } from '@/components/ui/dialog-shell.tsx';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { RechargeButton, type ControlStart } from './header-buttons.tsx';

const DepositForm = lazy(() =>
  import('@/features/wallet/components/deposit-form.tsx').then((module) => ({ default: module.DepositForm })),
);

export function RechargeDialog({ start }: { start?: ControlStart }) {
  const [open, setOpen] = useState(start?.open ?? false);
  return (
    <DialogShell
      open={open}
      onOpenChange={setOpen}
      title="Add Funds to Wallet"
      trigger={<RechargeButton autoFocus={start?.focus} />}
      closeButton
    >
      <Suspense fallback={<PageSpinner />}>
        <DepositForm />
      </Suspense>
    </DialogShell>
  );
}
