/**
 * The house-risk settings (stake limits, liability limit, when betting closes or pauses,
 * referral bonuses a referrer may be paid, the second admin for large credits and each admin's daily credit
 * cap, the price of a new match). The form
 * checks with the domain's rules (src/domain/risk.ts), which the database repeats; every saved change is
 * audited there. Raising a control on admin money waits for another admin: such changes are listed below the
 * form, for another admin to approve or reject.
 */
import { Box, Button, Input, SimpleGrid, Stack, Switch } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import { formatOdds } from '@/domain/price.ts';
import { riskSettingsSchema, type RiskSettings } from '@/domain/risk.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useRiskSettings } from '../api/get-risk-settings.ts';
import { useUpdateRiskSettings } from '../api/update-risk-settings.ts';
import { LoadError } from '@/components/ui/load-error.tsx';
import { PageHeader } from '@/features/admin/shared/components/page-header.tsx';
import { PendingSettingsChanges } from '../components/pending-settings-changes.tsx';
import { SETTING_LABELS } from '@/features/admin/shared/lib/labels.ts';
import { SectionCard } from '@/components/ui/section-card.tsx';

/** Text inputs in, the settings out: an empty amount is no number (refused); an empty close over is none. */
const number = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));
const emptyIsNull = (value: string) => (value.trim() === '' ? null : number(value));
const { shape } = riskSettingsSchema;
export const settingsFormSchema = z.object({
  max_stake_per_bet: z.string().transform(number).pipe(shape.max_stake_per_bet),
  max_stake_per_player_match: z.string().transform(number).pipe(shape.max_stake_per_player_match),
  max_liability_per_match: z.string().transform(number).pipe(shape.max_liability_per_match),
  betting_close_over: z.string().transform(emptyIsNull).pipe(shape.betting_close_over),
  betting_pre_match_only: shape.betting_pre_match_only,
  live_feed_stale_seconds: z.string().transform(emptyIsNull).pipe(shape.live_feed_stale_seconds),
  referral_bonuses_per_month: z.string().transform(number).pipe(shape.referral_bonuses_per_month),
  adjustment_review_amount: z.string().transform(number).pipe(shape.adjustment_review_amount),
  admin_credit_per_day: z.string().transform(number).pipe(shape.admin_credit_per_day),
  default_odds: z.string().transform(number).pipe(shape.default_odds),
});
type FormInput = z.input<typeof settingsFormSchema>;

function formValues(settings: RiskSettings): FormInput {
  return {
    max_stake_per_bet: String(settings.max_stake_per_bet),
    max_stake_per_player_match: String(settings.max_stake_per_player_match),
    max_liability_per_match: String(settings.max_liability_per_match),
    betting_close_over: settings.betting_close_over === null ? '' : settings.betting_close_over.toFixed(1),
    betting_pre_match_only: settings.betting_pre_match_only,
    live_feed_stale_seconds: settings.live_feed_stale_seconds === null ? '' : String(settings.live_feed_stale_seconds),
    referral_bonuses_per_month: String(settings.referral_bonuses_per_month),
    adjustment_review_amount: String(settings.adjustment_review_amount),
    admin_credit_per_day: String(settings.admin_credit_per_day),
    default_odds: formatOdds(settings.default_odds),
  };
}

type NumberSetting = Exclude<keyof FormInput, 'betting_pre_match_only'>;

/** The settings typed as numbers, in the form's order: help text, keyboard and example (labels: SETTING_LABELS). */
const NUMBER_FIELDS: {
  name: NumberSetting;
  help: string;
  inputMode: 'numeric' | 'decimal';
  placeholder?: string;
}[] = [
  {
    name: 'max_stake_per_bet',
    help: 'The largest stake of one bet.',
    inputMode: 'numeric',
  },
  {
    name: 'max_stake_per_player_match',
    help: 'The largest total one player may stake on one match.',
    inputMode: 'numeric',
  },
  {
    name: 'max_liability_per_match',
    help: 'The most the house may lose on a match, whichever side wins: the payouts on that side minus all stakes.',
    inputMode: 'numeric',
  },
  {
    name: 'betting_close_over',
    help: 'Betting closes when a live match reaches this over of the second innings. Empty: open until the result.',
    inputMode: 'decimal',
    placeholder: 'e.g. 15.0',
  },
  {
    name: 'live_feed_stale_seconds',
    help: 'A live match, or an upcoming one past its start, takes no bets this long after its last live update. Empty: never.',
    inputMode: 'numeric',
    placeholder: 'e.g. 180',
  },
  {
    name: 'referral_bonuses_per_month',
    help: "A bonus is paid once the house's result on the referred player's settled bets reaches it, never for a linked account.",
    inputMode: 'numeric',
  },
  {
    name: 'adjustment_review_amount',
    help: 'A wallet credit, or an unconfirmed deposit or a withdrawal, of at least this needs a second admin. Raising it needs one too.',
    inputMode: 'numeric',
  },
  {
    name: 'admin_credit_per_day',
    help: 'What one admin may credit in 24 hours, pending credits and approved deposits included. Raising it needs a second admin.',
    inputMode: 'numeric',
  },
  {
    name: 'default_odds',
    help: 'The price of both teams when a match is created (3.00 pays three times the stake). Price each match on its page.',
    inputMode: 'decimal',
    placeholder: 'e.g. 1.90',
  },
];

function SettingsForm({ settings }: { settings: RiskSettings }) {
  const update = useUpdateRiskSettings();
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<FormInput, unknown, RiskSettings>({
    resolver: zodResolver(settingsFormSchema),
    defaultValues: formValues(settings),
  });
  // A change applied elsewhere (another admin's approval) shows as soon as the settings are read again, in the
  // fields this admin has not edited.
  useEffect(() => reset(formValues(settings), { keepDirtyValues: true }), [settings, reset]);

  const onSubmit = handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: ({ settings: saved, pending }) => {
        reset(formValues(saved));
        notify(
          pending
            ? { title: 'Change sent for approval', description: pending.message }
            : { title: 'Settings saved', description: 'The house-risk settings have been updated.' },
        );
      },
      onError: (error) =>
        notify({ title: 'Failed to save settings', description: errorMessage(error), variant: 'destructive' }),
    }),
  );

  return (
    <FormStack gap="5" onSubmit={onSubmit} noValidate aria-label="House risk settings">
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        {NUMBER_FIELDS.map(({ name, help, inputMode, placeholder }) => (
          <FormField key={name} label={SETTING_LABELS[name]} error={errors[name]?.message} helperText={help}>
            <Input inputMode={inputMode} placeholder={placeholder} {...register(name)} />
          </FormField>
        ))}
      </SimpleGrid>
      <Controller
        control={control}
        name="betting_pre_match_only"
        render={({ field }) => (
          <Switch.Root
            name={field.name}
            checked={field.value}
            onCheckedChange={(details) => field.onChange(details.checked)}
            colorPalette="blue"
          >
            <Switch.HiddenInput onBlur={field.onBlur} />
            <Switch.Control />
            <Switch.Label>{SETTING_LABELS.betting_pre_match_only}</Switch.Label>
          </Switch.Root>
        )}
      />
      <Button type="submit" colorPalette="blue" alignSelf="start" loading={update.isPending}>
        Save Settings
      </Button>
    </FormStack>
  );
}

export function SettingsRoute() {
  const settings = useRiskSettings();
  return (
    <Box maxW="4xl">
      <PageHeader title="Settings" />
      <Stack gap="6">
        <SectionCard
          title="House risk"
          description="Limits every bet and every admin credit is checked against, and when betting closes or pauses by itself. Every change is recorded in the audit log."
        >
          {settings.isPending ? (
            <PageSpinner label="Loading settings" />
          ) : settings.isError ? (
            <LoadError what="settings" />
          ) : (
            <SettingsForm settings={settings.data} />
          )}
        </SectionCard>
        <PendingSettingsChanges />
      </Stack>
    </Box>
  );
}
