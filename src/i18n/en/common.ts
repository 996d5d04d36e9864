export const meta = {
  siteName: 'Shipping & Port Services Platform',
  shortName: 'Port Portal',
  description: 'Sign in to the shipping and port services platform: ship owners, charterers, agents, shipyards and fuel suppliers.',
};

export const header = {
  /** The toggle names the language it switches to. */
  langToggle: '中文',
  /** What the switch shows, as the specification has it: "CN" on English pages, "EN" on Chinese ones; its name adds langToggle. */
  langToggleShort: 'CN',
  langToggleLabel: 'Switch to Chinese',
  logout: 'Sign out',
  skipToContent: 'Skip to main content',
};

export const browserNotice = {
  text: 'For the best experience use Chrome 64 or Firefox 63 or newer.',
  dismiss: 'Dismiss',
};

export const common = {
  loading: 'Loading…',
  backToLogin: 'Back to sign-in',
  footer: 'Shipping & Port Services Platform',
};

export const pages = {
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
  wechat_callback: { title: 'Sign in with WeChat', lead: 'Finishing your WeChat or WeCom sign-in.' },
  company_sso_callback: { title: 'Sign in with your company', lead: 'Finishing your sign-in through your company’s identity provider.' },
  pass_email_login: { title: 'Sign in with an e-mail link', lead: 'Get a one-time sign-in link by e-mail, or use the one you received.' },
  share_login: { title: 'Sign in with a shared link', lead: 'Go on, on this device, with the link made on your other device.' },
  partner: { title: 'Partner workspace', lead: 'Navigator partners work here for the shipping companies that chose them.' },
  connect: { title: 'Sign in to an app', lead: 'An app asks to sign you in with your portal account.' },
  sign_out: { title: 'Sign out', lead: 'Do you want to sign out of the portal in this browser?' },
  undo_change: { title: 'This wasn’t me', lead: 'Someone changed the e-mail address of your account. Here you can put your address back.' },
  oidc_error: { title: 'This sign-in link is not valid', lead: 'The app that sent you here is not registered with the portal, or sent you from an address it did not register. Nothing was shared with it.' },
  not_found: { title: 'Page not found', lead: 'The page you asked for does not exist or has moved.' },
};

export const validation = {
  phoneRequired: 'Please enter your mobile number.',
  phoneInvalid: 'Please enter right mobile phone number.',
  emailRequired: 'Please enter your e-mail.',
  emailInvalid: 'Please enter a valid e-mail address.',
  codeRequired: 'Please enter the verification code.',
  passwordRequired: 'Please enter your password (6 to 18 letters and digits).',
  passwordRule: 'The password must be 6 to 18 letters and digits.',
  passwordMismatch: 'The two passwords must be the same.',
  userIdRequired: 'Please enter your user ID.',
  agreementRequired: 'Please read and agree to the Terms of Service.',
  companyNameRequired: 'Please enter the company name.',
  companyNameTooLong: 'At most 50 characters.',
};

export const errors = {
  generic: 'Something went wrong. Please try again.',
  network: 'You seem to be offline. Check your connection and try again.',
  /** A call with no answer within CALL_TIMEOUT_MS (src/api/client.ts); the form keeps what was typed. */
  timeout: 'This is taking longer than usual. Try again.',
  /** The server closed or reset the connection while the browser is online. */
  connection: 'The connection to the server broke off. Try again.',
  server: 'Something went wrong on our side. Please try again.',
  /** Shown after a failure on our side, so that support can find the call. */
  reference: '(Reference: {id})',
  linkInvalid: 'This sign-in link is not valid. Please ask for a new one.',
  registerFailed: 'Registration failed. Please try again.',
  /** A name with a bidirectional or zero-width character (the display-text rule; the gateway's GW0422). */
  hiddenCharacters: 'Names cannot contain invisible characters or characters that change the text direction.',
};
