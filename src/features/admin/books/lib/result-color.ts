/** The color of a house result: green when the house won, red when it lost. */
export function resultColor(amount: number): string | undefined {
  return amount > 0 ? 'green.600' : amount < 0 ? 'red.600' : undefined;
}
