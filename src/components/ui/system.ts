/**
 * The Chakra system of the app: the base config plus only the recipes the player's screens render (the back
 * office extends it with its own, src/features/admin/shell/admin-system.ts).
 * `defaultSystem` carries every recipe of the library, much of it code the first load would not need.
 */
import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  containerRecipe,
  dialogSlotRecipe,
  fieldSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  semanticTokens,
  separatorRecipe,
  spinnerRecipe,
  tabsSlotRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
} from '@chakra-ui/react/theme';

/**
 * Colour palettes. createSystem turns every token into a CSS variable and every
 * palette into `colorPalette` conditions before the first paint, so the palettes the player app never
 * uses are left out (less token work at start-up). Take a palette out of this set before using it.
 */
export const unusedPalettes = new Set(['teal', 'cyan', 'purple', 'pink']);
const withoutUnusedPalettes = <T extends object>(group: T): T =>
  Object.fromEntries(Object.entries(group).filter(([name]) => !unusedPalettes.has(name))) as T;

/** White on green.600 is 3.3:1; green.700 makes solid green buttons meet WCAG AA (5:1). */
const colors = withoutUnusedPalettes(semanticTokens.colors as Record<string, Record<string, unknown>>);
const accessibleSemanticTokens = {
  ...semanticTokens,
  colors: {
    ...colors,
    green: { ...colors.green, solid: { value: { _light: '{colors.green.700}', _dark: '{colors.green.600}' } } },
  },
};

export const config = defineConfig({
  preflight: true,
  cssVarsPrefix: 'chakra',
  cssVarsRoot: ':where(html, .chakra-theme)',
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens: { ...tokens, colors: withoutUnusedPalettes(tokens.colors ?? {}) },
    semanticTokens: accessibleSemanticTokens,
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
      separator: separatorRecipe,
      spinner: spinnerRecipe,
    },
    slotRecipes: {
      alert: alertSlotRecipe,
      card: cardSlotRecipe,
      dialog: dialogSlotRecipe,
      field: fieldSlotRecipe,
      menu: menuSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      tabs: tabsSlotRecipe,
      toast: toastSlotRecipe,
    },
  },
});

export const system = createSystem(defaultBaseConfig, config);
