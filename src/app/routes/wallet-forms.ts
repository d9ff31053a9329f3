/**
 * The Deposit, Withdraw and Bank Accounts tabs' contents: one chunk with the form code (react-hook-form,
 * zod schemas), which routes/wallet.tsx loads after the Overview tab (the default) has painted.
 */
export { BankAccountForm } from '@/features/bank-accounts/components/bank-account-form.tsx';
export { BankAccountList } from '@/features/bank-accounts/components/bank-account-list.tsx';
export { DepositForm } from '@/features/wallet/components/deposit-form.tsx';
export { WithdrawForm } from '@/features/wallet/components/withdraw-form.tsx';
