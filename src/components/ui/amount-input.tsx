import { Input, type InputProps } from '@chakra-ui/react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { digitsOnlyChange } from '@/lib/digits-only.ts';

/** A whole-rupee amount field of a form: digits only as typed or pasted, on the numeric keyboard. */
export function AmountInput({ field, ...props }: InputProps & { field: UseFormRegisterReturn }) {
  return <Input {...field} onChange={digitsOnlyChange(field.onChange)} inputMode="numeric" {...props} />;
}
