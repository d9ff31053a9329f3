/** The dashboard's figure of today's house result (IST), from the books; it opens the Books screen. */
import { Card, Stat } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { adminPaths } from '@/config/paths.ts';
import { formatRupees } from '@/domain/money.ts';
import { istToday, useBooks } from '../api/get-books.ts';
import { resultColor } from '../lib/result-color.ts';

export function TodayHouseResult() {
  const today = istToday();
  const { data } = useBooks({ from: today, to: today });
  const value = data ? formatRupees(data.totals.house_result) : '…';
  return (
    <RouterLink to={adminPaths.books} aria-label={`House result today: ${value}`}>
      <Card.Root h="full" _hover={{ borderColor: 'blue.400' }}>
        <Card.Body>
          <Stat.Root>
            <Stat.Label>House result today</Stat.Label>
            <Stat.ValueText color={data ? resultColor(data.totals.house_result) : undefined}>{value}</Stat.ValueText>
            <Stat.HelpText>Stakes settled − paid − refunded</Stat.HelpText>
          </Stat.Root>
        </Card.Body>
      </Card.Root>
    </RouterLink>
  );
}
