/** English messages. The shape of this object is the key set every locale must provide (see Messages). */
export const en = {
  meta: {
    siteName: 'Shipping & Port Services Platform',
    shortName: 'Port Portal',
    description: 'Sign in to the shipping and port services platform: ship owners, charterers, agents, shipyards and fuel suppliers.',
  },
  header: {
    /** The toggle names the language it switches to. */
    langToggle: 'CN',
    langToggleLabel: 'Switch to Chinese',
    logout: 'Sign out',
    home: 'Home',
  },
  browserNotice: {
    text: 'For the best experience use Chrome 64 or Firefox 63 or newer.',
    dismiss: 'Dismiss',
  },
  common: {
    loading: 'Loading…',
    backToLogin: 'Back to sign-in',
    footer: 'Shipping & Port Services Platform',
  },
  pages: {
    login: { title: 'Sign in', lead: 'Sign in with your phone or e-mail. A verification code also creates your account.' },
    navigator_login: { title: 'Partner sign-in', lead: 'Navigator partners sign in with phone and password.' },
    register: { title: 'Create your account', lead: 'Register with your phone or e-mail and a verification code.' },
    join: { title: 'Join your company', lead: 'Enter the invitation code your administrator gave you.' },
    forget: { title: 'Reset your password', lead: 'Prove it is you with a code, then choose a new password.' },
    navigator_forget: { title: 'Reset partner password', lead: 'Prove it is you with a code, then choose a new password.' },
    account: { title: 'Choose an account', lead: 'Pick the company and role you want to work in.' },
    user_center: { title: 'User center', lead: 'Your profile, companies and roles.' },
    create_account: { title: 'Create your company', lead: 'As the enterprise administrator, tell us about your company.' },
    fill_account: { title: 'Complete company information', lead: 'Fill in the details we still need to verify your company.' },
    change_password: { title: 'Change password', lead: 'Choose a new password of 6 to 18 letters and digits.' },
    enterprise_adm_and_staff: { title: 'Set up your company access', lead: 'Create a company as its administrator, or join one as staff.' },
    completion_of_application: { title: 'Application submitted', lead: 'Here is what happens next.' },
    pass_email_login: { title: 'Signing you in', lead: 'Checking your e-mail sign-in link.' },
    share_login: { title: 'Signing you in', lead: 'Checking your shared sign-in link.' },
    not_found: { title: 'Page not found', lead: 'The page you asked for does not exist or has moved.' },
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
/** One key set for every locale: a missing or extra key is a type error (and a unit test). */
export type Messages = Widen<typeof en>;
