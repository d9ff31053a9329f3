/**
 * A back-office table: one row per record, one cell per column. The bet, transaction and user lists are
 * each a list of columns over it, so a list shows the same column the same way wherever it appears. The table
 * recipe is in the back office's Chakra system (src/features/admin/shell/admin-system.ts), not the player's.
 */
import { Table, Text, type TableCellProps, type TableScrollAreaProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** numbers line up at the end */
  end?: boolean;
  /** dates stay on one line */
  nowrap?: boolean;
  /** the cell's own props for a row (an amount's colour) */
  cellProps?: (row: Row) => TableCellProps;
}

/** The frame of a table that stands on the page rather than in a card. */
const frame: TableScrollAreaProps = { borderWidth: '1px', rounded: 'md', bg: 'white' };

interface DataTableProps<Row> extends Omit<TableScrollAreaProps, 'columns'> {
  label: string;
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  stickyHeader?: boolean;
  /** stands on the page (a border on white) rather than in a card */
  framed?: boolean;
  /** what shows instead of the table when there are no rows */
  empty?: string;
  /** a row's test id, for tests that pick a row */
  rowTestId?: (row: Row) => string;
}

export function DataTable<Row extends { id: number }>({
  label,
  rows,
  columns,
  stickyHeader,
  framed,
  empty,
  rowTestId,
  ...scrollArea
}: DataTableProps<Row>) {
  if (rows.length === 0 && empty !== undefined) return <Text color="fg.muted">{empty}</Text>;
  return (
    <Table.ScrollArea {...(framed ? frame : {})} {...scrollArea}>
      <Table.Root size="sm" aria-label={label} stickyHeader={stickyHeader}>
        <Table.Header>
          <Table.Row>
            {columns.map((column) => (
              <Table.ColumnHeader key={column.header} textAlign={column.end ? 'end' : undefined}>
                {column.header}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={row.id} data-testid={rowTestId?.(row)}>
              {columns.map((column) => (
                <Table.Cell
                  key={column.header}
                  textAlign={column.end ? 'end' : undefined}
                  whiteSpace={column.nowrap ? 'nowrap' : undefined}
                  {...column.cellProps?.(row)}
                >
                  {column.cell(row)}
                </Table.Cell>
              ))}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
