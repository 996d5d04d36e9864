import { lazy } from 'react';
import type { Messages } from '../../i18n';
import type { Lang } from '../../lib/lang';
import type { AdministeredCompany } from '../../stores/user-center';
import { withLaterWords, type FirstWords } from './words';

// The user center's lower parts (issue 31), out of the island's first load: this small module loads when the first
// of them comes near (UserCenter's WhenVisible), reads the lower sections' words from the page's JSON (./words.ts)
// and loads each part's code in its own chunk. Two-step verification (its calls, schemas and the QR code) loads with
// the Security section; a company's two-step rule, members and API clients with its part.
const Passkeys = lazy(() => import('./Passkeys').then((m) => ({ default: m.Passkeys })));
const TwoStep = lazy(() => import('./TwoStep').then((m) => ({ default: m.TwoStep })));
const CompanyTwoStep = lazy(() => import('./TwoStep').then((m) => ({ default: m.CompanyTwoStep })));
const CompanyDevices = lazy(() => import('./TwoStep').then((m) => ({ default: m.CompanyDevices })));
const SecuritySessions = lazy(() => import('./SecuritySessions').then((m) => ({ default: m.SecuritySessions })));
const KnownDevices = lazy(() => import('./KnownDevices').then((m) => ({ default: m.KnownDevices })));
const SignInHistory = lazy(() => import('./SignInHistory').then((m) => ({ default: m.SignInHistory })));
const ConnectedApps = lazy(() => import('./ConnectedApps').then((m) => ({ default: m.ConnectedApps })));
const LinkedAccounts = lazy(() => import('./LinkedAccounts').then((m) => ({ default: m.LinkedAccounts })));
const SupportCode = lazy(() => import('./SupportCode').then((m) => ({ default: m.SupportCode })));
const AccountActivity = lazy(() => import('./AccountActivity').then((m) => ({ default: m.AccountActivity })));
const CompanyMembers = lazy(() => import('./CompanyMembers').then((m) => ({ default: m.CompanyMembers })));
const CompanyApiClients = lazy(() => import('./CompanyApiClients').then((m) => ({ default: m.CompanyApiClients })));
const CompanyGrants = lazy(() => import('./CompanyGrants').then((m) => ({ default: m.CompanyGrants })));
const CompanyWebhooks = lazy(() => import('./CompanyWebhooks').then((m) => ({ default: m.CompanyWebhooks })));
const CompanySso = lazy(() => import('./CompanySso').then((m) => ({ default: m.CompanySso })));
const YourData = lazy(() => import('./YourData').then((m) => ({ default: m.YourData })));

/** The Security section's parts. */
export function SecurityParts({ lang, messages, closed }: { lang: Lang; messages: FirstWords; closed?: boolean }) {
  // A support "view as" (issue 44) never touches security settings (the gateway refuses them): nothing to load.
  if (closed) return <p className="hint">{messages.userCenter.supportClosed}</p>;
  const all = withLaterWords(messages);
  return (
    <>
      <Passkeys lang={lang} messages={all} />
      <TwoStep messages={all} />
      <SecuritySessions lang={lang} messages={all} />
      <KnownDevices lang={lang} messages={all} />
      <SignInHistory lang={lang} messages={all} />
      <ConnectedApps lang={lang} messages={all} />
      <LinkedAccounts lang={lang} messages={all} />
      <AccountActivity lang={lang} messages={all} />
      <SupportCode lang={lang} messages={all} />
    </>
  );
}

/** An administered company's two-step rule, members, API clients, event webhooks and activity, vessels and grants. */
export function CompanyParts(props: { lang: Lang; company: AdministeredCompany; companyName: string; requireTwoStep: boolean; messages: FirstWords }) {
  const { lang, company, companyName } = props;
  const all = withLaterWords(props.messages);
  return (
    <>
      <CompanyTwoStep companyId={company.companyId} required={props.requireTwoStep} messages={all} />
      <CompanyDevices companyId={company.companyId} twoStepRequired={props.requireTwoStep} messages={all} />
      <CompanyMembers lang={lang} company={company} companyName={companyName} messages={all} />
      <CompanyApiClients lang={lang} companyId={company.companyId} companyName={companyName} messages={all} />
      <CompanyGrants lang={lang} companyId={company.companyId} companyName={companyName} messages={all} />
      <CompanyWebhooks lang={lang} companyId={company.companyId} companyName={companyName} messages={all} />
      <CompanySso lang={lang} companyId={company.companyId} companyName={companyName} messages={all} />
    </>
  );
}

/** "Your data": the person's rights over their data. */
export function YourDataPart(props: { lang: Lang; messages: FirstWords; sliderLabels: Messages['signIn']['slider'] & { networkError: string }; closed?: boolean }) {
  // Never in a support "view as" (issue 44): data rights are the person's own (the banner says they are not shown).
  if (props.closed) return null;
  return <YourData lang={props.lang} messages={withLaterWords(props.messages)} sliderLabels={props.sliderLabels} />;
}
