/**
 * The Chakra system of the back office: the player's base (tokens, global CSS) plus the recipes the admin
 * screens render (tables, radio groups, the date picker, data lists, stats…). Recipes are imported one by
 * one: importing `defaultConfig` would drag the library's whole recipe map into the chunk shared with the
 * player app. This module is reachable only from the lazy admin chunk.
 */
import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  animationStyles, badgeRecipe, breakpoints, buttonRecipe, cardSlotRecipe, containerRecipe, dataListSlotRecipe,
  datePickerSlotRecipe, dialogSlotRecipe, emptyStateSlotRecipe, fieldSlotRecipe, globalCss, headingRecipe, iconRecipe,
  inputRecipe, keyframes, layerStyles, linkRecipe, listSlotRecipe, nativeSelectSlotRecipe, radioGroupSlotRecipe,
  radiomarkRecipe, semanticTokens, separatorRecipe, spinnerRecipe, statSlotRecipe, switchSlotRecipe, tableSlotRecipe,
  tabsSlotRecipe,
  textareaRecipe, textStyles, toastSlotRecipe, tokens,
} from '@chakra-ui/react/theme';

const config = defineConfig({
  preflight: true,
  cssVarsPrefix: 'chakra',
  cssVarsRoot: ':where(html, .chakra-theme)',
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens,
    semanticTokens,
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      badge: badgeRecipe,
      button: buttonRecipe,
      container: containerRecipe,
      heading: headingRecipe,
      icon: iconRecipe,
      input: inputRecipe,
      link: linkRecipe,
      radiomark: radiomarkRecipe,
      separator: separatorRecipe,
      spinner: spinnerRecipe,
      textarea: textareaRecipe,
    },
    slotRecipes: {
      card: cardSlotRecipe,
      dataList: dataListSlotRecipe,
      datePicker: datePickerSlotRecipe,
      dialog: dialogSlotRecipe,
      emptyState: emptyStateSlotRecipe,
      field: fieldSlotRecipe,
      list: listSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      radioGroup: radioGroupSlotRecipe,
      stat: statSlotRecipe,
      switch: switchSlotRecipe,
      table: tableSlotRecipe,
      tabs: tabsSlotRecipe,
      toast: toastSlotRecipe,
    },
  },
});

export const adminSystem = createSystem(defaultBaseConfig, config);
