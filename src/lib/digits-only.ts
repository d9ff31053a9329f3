import type { ChangeEvent } from 'react';

/** Keeps the digits of what was typed or pasted, without leading zeros ('1000.5' → '10005', '007' → '7'). */
export function digitsOnly(text: string): string {
  return text.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
}

/**
 * Wraps a react-hook-form `onChange` so a whole-rupee amount field takes digits only as typed (like the
 * bet slip): a decimal point or other character never reaches the field, so '1000.5' cannot be entered.
 */
export function digitsOnlyChange<T>(onChange: (event: ChangeEvent<HTMLInputElement>) => T) {
  return (event: ChangeEvent<HTMLInputElement>) => {
    const cleaned = digitsOnly(event.target.value);
    if (cleaned !== event.target.value) event.target.value = cleaned;
    return onChange(event);
  };
}
