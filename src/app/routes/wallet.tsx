/**
 * /wallet: Overview, Deposit, Withdraw and Bank Accounts tabs. The other tabs' forms load after
 * the Overview has painted (or at once when their tab is chosen), out of the first screen's download.
 */
import { Card, Container, Heading, Stack, Tabs } from '@chakra-ui/react';
import { useState } from 'react';
import { deferredModule, useDeferredModule } from '@/components/ui/deferred-module.ts';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { useErrorToast } from '@/components/ui/use-error-toast.ts';
import type { BankAccount } from '@/domain/entities.ts';
import { useUser } from '@/lib/auth.ts';
import { useShownWithoutRead } from '@/lib/use-online.ts';
import { useBankAccounts } from '@/features/bank-accounts/api/get-bank-accounts.ts';
import { useCompletedDeposits } from '@/features/wallet/api/get-transactions.ts';
import { BalanceCard } from '@/features/wallet/components/balance-card.tsx';
import { TRANSACTIONS_ERROR, TransactionList } from '@/features/wallet/components/transaction-list.tsx';

type WalletTab = 'overview' | 'deposit' | 'withdraw' | 'bank-accounts';

const BANK_ACCOUNTS_ERROR = 'Error loading bank accounts. Please try again later.';

type WalletForms = typeof import('./wallet-forms.ts');
const walletForms = deferredModule<WalletForms>(() => import('./wallet-forms.ts'));

/** The player's bank accounts, and the form to add one. */
function BankAccountsTab({
  forms,
  accounts,
  userId,
}: {
  forms: WalletForms | undefined;
  accounts: BankAccount[] | undefined;
  userId: number | undefined;
}) {
  return (
    <Stack gap="6">
      <Stack gap="3">
        <Heading as="h2" size="md">
          Bank Accounts
        </Heading>
        {!forms || !accounts ? <PageSpinner /> : <forms.BankAccountList accounts={accounts} />}
      </Stack>
      {userId !== undefined && forms && (
        <Stack gap="3">
          <Heading as="h3" size="sm">
            Add Bank Account
          </Heading>
          <forms.BankAccountForm userId={userId} />
        </Stack>
      )}
    </Stack>
  );
}

export function WalletRoute() {
  const [tab, setTab] = useState<WalletTab>('overview');
  const user = useUser();
  const deposits = useCompletedDeposits();
  const bankAccounts = useBankAccounts();
  const forms = useDeferredModule(walletForms);
  const selectTab = (value: string) => {
    setTab(value as WalletTab);
    walletForms.load(); // at once when a form's tab is chosen before the idle-time load
  };
  useErrorToast(user.error, 'Failed to fetch user');

  // offline before the user ever loaded, the page shows without figures; its actions wait for the network
  const offline = useShownWithoutRead(user.isPending && user.fetchStatus === 'paused');
  if (user.isPending && !offline) return <PageSpinner label="Loading wallet" />;
  const current = user.data;
  // The withdrawal checks need the completed deposits and the bank accounts: without them the form would answer wrongly, so it is blocked.
  const withdrawLoadError = deposits.isError
    ? TRANSACTIONS_ERROR
    : bankAccounts.isError
      ? BANK_ACCOUNTS_ERROR
      : undefined;

  return (
    <Container maxW="4xl" py="6">
      <Stack gap="5">
        <Heading as="h1" size="2xl">
          My Wallet
        </Heading>
        <BalanceCard user={current} />
        <Tabs.Root
          value={tab}
          onValueChange={(details) => selectTab(details.value)}
          variant="line"
          lazyMount
          unmountOnExit
        >
          <Tabs.List overflowX="auto">
            <Tabs.Trigger value="overview">Overview</Tabs.Trigger>
            <Tabs.Trigger value="deposit">Deposit</Tabs.Trigger>
            <Tabs.Trigger value="withdraw">Withdraw</Tabs.Trigger>
            <Tabs.Trigger value="bank-accounts">Bank Accounts</Tabs.Trigger>
          </Tabs.List>
          <Card.Root mt="4">
            <Card.Body>
              <Tabs.Content value="overview" p="0">
                <Heading as="h2" size="md" mb="3">
                  Transaction History
                </Heading>
                <TransactionList detailed />
              </Tabs.Content>
              <Tabs.Content value="deposit" p="0">
                <Heading as="h2" size="md" mb="3">
                  Deposit Funds
                </Heading>
                {forms ? <forms.DepositForm /> : <PageSpinner />}
              </Tabs.Content>
              <Tabs.Content value="withdraw" p="0">
                <Heading as="h2" size="md" mb="3">
                  Withdraw Funds
                </Heading>
                {!forms || bankAccounts.isPending || deposits.isPending ? (
                  <PageSpinner />
                ) : (
                  <forms.WithdrawForm
                    user={current}
                    bankAccounts={bankAccounts.data ?? []}
                    transactions={deposits.items ?? []}
                    onAddBankAccount={() => setTab('bank-accounts')}
                    loadError={withdrawLoadError}
                  />
                )}
              </Tabs.Content>
              <Tabs.Content value="bank-accounts" p="0">
                <BankAccountsTab
                  forms={forms}
                  accounts={bankAccounts.isPending ? undefined : (bankAccounts.data ?? [])}
                  userId={current?.id}
                />
              </Tabs.Content>
            </Card.Body>
          </Card.Root>
        </Tabs.Root>
      </Stack>
    </Container>
  );
}
