/**
 * The over-round of a match's prices, 100 × (1/team1 odds + 1/team2 odds), and below 100 the warning that
 * backing both teams in proportion to the prices pays whichever wins.
 */
import { Alert, Text } from '@chakra-ui/react';
import { priceMessages } from '@/domain/price.ts';

export function OverroundLine({ percent }: { percent: number }) {
  return (
    <>
      <Text fontSize="sm">Over-round: {percent.toFixed(1)} %</Text>
      {percent < 100 && (
        <Alert.Root status="warning" size="sm">
          <Alert.Indicator />
          <Alert.Title>{priceMessages.certainProfit}</Alert.Title>
        </Alert.Root>
      )}
    </>
  );
}
