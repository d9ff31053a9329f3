import { DataList, type DataListItemValueProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** A labelled value of a details card (a DataList item); the value's props style the value. */
export function InfoItem({
  label,
  children,
  ...value
}: DataListItemValueProps & { label: string; children: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue {...value}>{children}</DataList.ItemValue>
    </DataList.Item>
  );
}
