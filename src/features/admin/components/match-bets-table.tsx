/**
 * A match's bets: User ID, Team (short name), Amount, Odds ('3x'), Potential Win, Status, Placed At;
 * the count line counts every bet of the match (the server's count), the table shows the pages loaded so far.
 */
import { Card, Heading, Link, Stack, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { LoadMoreButton, type MoreRows } from '../../../components/ui/load-more-button.tsx';
import type { Bet } from '../../../domain/entities.ts';
import { formatDateTime, formatRupees } from '../../../domain/money.ts';
import { adminPaths } from '../../../config/paths.ts';
import { teamOf } from '../lib/labels.ts';
import { StatusBadge } from './status-badge.tsx';

export function MatchBetsTable({ bets, count, list }: { bets: readonly Bet[]; count: number; list: MoreRows }) {
  return (
    <Card.Root as="section" aria-labelledby="match-bets-heading">
      <Card.Header>
        <Heading id="match-bets-heading" size="md">
          Match Bets
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          {count} bets placed on this match
        </Text>
      </Card.Header>
      <Card.Body>
        {bets.length === 0 ? (
          <Text color="fg.muted">No bets have been placed on this match yet.</Text>
        ) : (
          <Stack gap="3">
          <Table.ScrollArea>
            <Table.Root size="sm" aria-label="Match bets">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>User ID</Table.ColumnHeader>
                  <Table.ColumnHeader>Team</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Amount</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Odds</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Potential Win</Table.ColumnHeader>
                  <Table.ColumnHeader>Status</Table.ColumnHeader>
                  <Table.ColumnHeader>Placed At</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {bets.map((bet) => (
                  <Table.Row key={bet.id}>
                    <Table.Cell>
                      <Link asChild color="blue.600">
                        <RouterLink to={adminPaths.user(bet.user_id)}>{bet.user_id}</RouterLink>
                      </Link>
                    </Table.Cell>
                    <Table.Cell>{teamOf(bet.team, bet.team_id).short_name}</Table.Cell>
                    <Table.Cell textAlign="end">{formatRupees(bet.amount)}</Table.Cell>
                    <Table.Cell textAlign="end">{bet.odds}x</Table.Cell>
                    <Table.Cell textAlign="end">{formatRupees(bet.potential_win)}</Table.Cell>
                    <Table.Cell>
                      <StatusBadge kind="bet" value={bet.status} />
                    </Table.Cell>
                    <Table.Cell whiteSpace="nowrap">{formatDateTime(bet.created_at)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
          <LoadMoreButton list={list} />
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
