/**
 * The Deposit, Withdraw and Bank Accounts tabs' contents: one chunk with the form code (react-hook-form,
 * zod schemas), which routes/wallet.tsx loads after the Overview tab (the default) has painted.
 */
export { BankAccountForm } from '../../bank-accounts/components/bank-account-form.tsx';
export { BankAccountList } from '../../bank-accounts/components/bank-account-list.tsx';
export { DepositForm } from './deposit-form.tsx';
export { WithdrawForm } from './withdraw-form.tsx';
