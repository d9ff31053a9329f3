/**
 * The house's result per day as a bar chart (Chakra UI charts over recharts): a bar above the line for a day
 * the house won, below for a day it lost. Loaded on its own (React.lazy) when the Books screen shows, so
 * neither the player's pages nor the rest of the back office carry the chart library.
 */
import { Chart, useChart } from '@chakra-ui/charts';
import { Bar, BarChart, CartesianGrid, Cell, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { BooksDay } from '@/domain/books.ts';
import { formatRupees } from '@/domain/money.ts';

export default function HouseResultChart({ days }: { days: readonly BooksDay[] }) {
  const chart = useChart({
    data: days.map((day) => ({ day: day.day, house_result: day.house_result })),
    series: [{ name: 'house_result', label: 'House result', color: 'green.600' }],
  });
  return (
    <Chart.Root maxH="xs" chart={chart}>
      <BarChart responsive data={chart.data}>
        <CartesianGrid stroke={chart.color('border.muted')} vertical={false} />
        <XAxis
          dataKey={chart.key('day')}
          tickLine={false}
          axisLine={false}
          tickFormatter={(day: string) => day.slice(5)}
        />
        <YAxis
          tickLine={false}
          axisLine={false}
          width={80}
          tickFormatter={chart.formatNumber({ style: 'currency', currency: 'INR', notation: 'compact' })}
        />
        <ReferenceLine y={0} stroke={chart.color('border.emphasized')} />
        <Tooltip
          cursor={false}
          animationDuration={100}
          content={<Chart.Tooltip formatter={(value: number) => formatRupees(value)} />}
        />
        <Bar isAnimationActive={false} dataKey={chart.key('house_result')} name="House result">
          {chart.data.map((day) => (
            <Cell key={day.day} fill={chart.color(day.house_result >= 0 ? 'green.600' : 'red.600')} />
          ))}
        </Bar>
      </BarChart>
    </Chart.Root>
  );
}
