/** A labelled form control with its validation message (Chakra Field wires label, input and error ids). */
import { Field } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface FormFieldProps {
  label: string;
  error?: string;
  helperText?: ReactNode;
  required?: boolean;
  children: ReactNode;
}

export function FormField({ label, error, helperText, required, children }: FormFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)} required={required}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {children}
      {helperText && !error && <Field.HelperText color="fg.muted">{helperText}</Field.HelperText>}
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
}
