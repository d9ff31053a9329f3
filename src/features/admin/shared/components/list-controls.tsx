/**
 * What sits above a back-office list: the search box and the tabs, each tab with its count once the server
 * has answered (the tab's name stays its label: the count is hidden from its accessible name).
 */
import { Badge, Input, Tabs, type InputProps } from '@chakra-ui/react';

export function ListSearch({
  what,
  value,
  onChange,
  ...props
}: Omit<InputProps, 'onChange'> & { what: string; value: string; onChange: (value: string) => void }) {
  return (
    <Input
      placeholder={`Search ${what}...`}
      aria-label={`Search ${what}`}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      maxW="sm"
      bg="white"
      {...props}
    />
  );
}

function TabCount({ count }: { count: number | undefined }) {
  if (count === undefined) return null;
  return (
    <Badge size="sm" variant="subtle" ml="1.5" aria-hidden="true" data-testid="tab-count">
      {count.toLocaleString('en-IN')}
    </Badge>
  );
}

interface ListTabsProps<V extends string> {
  tabs: readonly { value: V; label: string }[];
  value: V;
  onChange: (value: V) => void;
  counts?: Partial<Record<V, number>>;
}

export function ListTabs<V extends string>({ tabs, value, onChange, counts = {} }: ListTabsProps<V>) {
  return (
    <Tabs.Root value={value} onValueChange={(details) => onChange(details.value as V)} mb="4">
      <Tabs.List flexWrap="wrap">
        {tabs.map((tab) => (
          <Tabs.Trigger key={tab.value} value={tab.value}>
            {tab.label}
            <TabCount count={counts[tab.value]} />
          </Tabs.Trigger>
        ))}
      </Tabs.List>
    </Tabs.Root>
  );
}
