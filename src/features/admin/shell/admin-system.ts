/**
 * The Chakra system of the back office: the app's system (src/components/ui/system.ts) extended with the
 * recipes only the admin screens render (tables, radio groups, the date picker, data lists, stats…) and the
 * purple of the admin role badge. Recipes are imported one by one: importing `defaultConfig` would drag
 * the library's whole recipe map into the chunk shared with the player app. This module is reachable only
 * from the lazy admin chunk.
 */
import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  dataListSlotRecipe,
  datePickerSlotRecipe,
  emptyStateSlotRecipe,
  listSlotRecipe,
  radioGroupSlotRecipe,
  radiomarkRecipe,
  semanticTokens,
  statSlotRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  textareaRecipe,
  tokens,
} from '@chakra-ui/react/theme';
import { config } from '@/components/ui/system.ts';

const adminConfig = defineConfig({
  theme: {
    tokens: { colors: { purple: tokens.colors!.purple } },
    semanticTokens: { colors: { purple: semanticTokens.colors!.purple } },
    recipes: { radiomark: radiomarkRecipe, textarea: textareaRecipe },
    slotRecipes: {
      dataList: dataListSlotRecipe,
      datePicker: datePickerSlotRecipe,
      emptyState: emptyStateSlotRecipe,
      list: listSlotRecipe,
      radioGroup: radioGroupSlotRecipe,
      stat: statSlotRecipe,
      switch: switchSlotRecipe,
      table: tableSlotRecipe,
    },
  },
});

export const adminSystem = createSystem(defaultBaseConfig, config, adminConfig);
