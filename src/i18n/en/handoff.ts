export const handoff = {
  title: 'This sign-in link cannot be used',
  invalid: 'The link is damaged or was not meant for this site. Please go back and try again.',
  expired: 'The link has expired. Links between our sites work for one minute.',
  replayed: 'The link has already been used. Each link works once.',
  credentials: 'The sign-in details passed from the other site were not accepted. Please sign in here.',
  blocked: 'This account has been blocked. Please contact customer support.',
  backToLogin: 'Go to sign-in',
  switchTitle: 'Which account do you want to use?',
  switchBody: 'You are already signed in on this browser. The link you opened signs in a different account.',
  switchHint: 'If you did not open this link yourself, keep your current account.',
  keepCurrent: 'Keep my current account',
  continueOther: 'Continue with the other account',
};
