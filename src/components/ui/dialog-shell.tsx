/**
 * The frame every dialog of the app is drawn in: backdrop, centred content with a title (and an optional
 * description), the body, the footer's buttons and an optional close button. A dialog that asks for a decision
 * is an `alert` (role alertdialog). The content mounts when the dialog first opens and unmounts when it closes,
 * so a closed dialog costs the page nothing. ConfirmDialog and FormDialog are built on it.
 */
import { CloseButton, Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface DialogShellProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** asks for a decision: role alertdialog */
  alert?: boolean;
  /** an × in the corner (for a dialog whose footer has no Cancel) */
  closeButton?: boolean;
  /** the element that opens the dialog, rendered in place */
  trigger?: ReactNode;
  /** false keeps the dialog open on a click outside it */
  closeOnInteractOutside?: boolean;
  /** wraps the header, body and footer (a form, so that the footer's submit button submits it) */
  wrap?: (content: ReactNode) => ReactNode;
}

export function DialogShell({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  alert = false,
  closeButton = false,
  trigger,
  closeOnInteractOutside,
  wrap = (content) => content,
}: DialogShellProps) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => onOpenChange(details.open)}
      role={alert ? 'alertdialog' : 'dialog'}
      placement="center"
      closeOnInteractOutside={closeOnInteractOutside}
      lazyMount
      unmountOnExit
    >
      {trigger && <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>}
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            {wrap(
              <>
                <Dialog.Header flexDirection="column" alignItems="start" gap="1">
                  <Dialog.Title>{title}</Dialog.Title>
                  {description && <Dialog.Description color="fg.muted">{description}</Dialog.Description>}
                </Dialog.Header>
                <Dialog.Body pb={footer ? undefined : '6'}>{children}</Dialog.Body>
                {footer && <Dialog.Footer>{footer}</Dialog.Footer>}
              </>,
            )}
            {closeButton && (
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="Close" />
              </Dialog.CloseTrigger>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
