/** The header's Recharge dialog 'Add Funds to Wallet' (loaded by header-controls.tsx); its form loads on first open. */
import { CloseButton, Dialog, Portal } from '@chakra-ui/react';
import { Suspense, lazy, useState } from 'react';
import { PageSpinner } from '../../components/ui/page-spinner.tsx';
import { RechargeButton, type ControlStart } from './header-buttons.tsx';

const DepositForm = lazy(() =>
  import('../../features/wallet/components/deposit-form.tsx').then((module) => ({ default: module.DepositForm })),
);

export function RechargeDialog({ start }: { start?: ControlStart }) {
  const [open, setOpen] = useState(start?.open ?? false);
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => setOpen(details.open)}
      lazyMount
      unmountOnExit
      placement="center"
    >
      <Dialog.Trigger asChild>
        <RechargeButton autoFocus={start?.focus} />
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Add Funds to Wallet</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body pb="6">
              <Suspense fallback={<PageSpinner />}>
                <DepositForm />
              </Suspense>
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
