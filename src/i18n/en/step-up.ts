/** "Confirm it's you": the dialog that asks a signed-in person to prove themselves again before a sensitive change. */
export const stepUp = {
  title: "Confirm it's you",
  intro: 'For your security, enter your password before this change.',
  introCode: 'For your security, confirm with a one-time code before this change.',
  introTwoStep: 'For your security, enter your password before this change. Then we ask for a code from your authenticator app.',
  passwordLabel: 'Current password',
  passwordRequired: 'Please enter your current password.',
  showPassword: 'Show password',
  hidePassword: 'Hide password',
  /** {to} is the account's e-mail or phone, partly hidden. */
  codeIntro: 'We send a one-time code to {to}.',
  codeLabel: 'Verification code',
  codeRequired: 'Please enter the code we sent.',
  getCode: 'Get code',
  resend: 'Resend',
  resendIn: 'Resend in {s} s',
  codeSent: 'Code sent. It is valid for 5 minutes.',
  /** The wait of a code sent moments ago (at sign-up or sign-in), which the person did not start here. {to}: where it went; {s}: seconds. */
  codeWait: 'A code went to {to} less than a minute ago, when you signed in. You can ask for a new one in {s} s.',
  secondIntro: 'Now enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  secondLabel: 'Authentication code or recovery code',
  secondInvalid: 'Please enter the 6 digits your app shows, or a recovery code such as ABCDE-23456.',
  passkeyAlone: 'Or confirm with one of your passkeys: your fingerprint, face or screen lock.',
  passkeyInstead: 'Or confirm with one of your passkeys instead of a code.',
  usePasskey: 'Use a passkey',
  passkeyWaiting: 'Follow the steps on your device…',
  passkeyCancelled: 'The passkey request was cancelled or timed out. Try again, or enter your password or a code.',
  passkeyFailed: 'The passkey request did not finish. Try again, or enter your password or a code.',
  continue: 'Continue',
  confirm: 'Confirm',
  checking: 'Checking…',
  cancel: 'Cancel',
  // Turning two-step off and new recovery codes ask first.
  turnOffTitle: 'Turn off two-step verification?',
  turnOffText: 'Signing in will no longer ask for a code from your authenticator app, and your recovery codes stop working.',
  newCodesTitle: 'Make new recovery codes?',
  newCodesText: 'Your current recovery codes stop working at once.',
  // After a password reset by code, above the passkeys in the user center.
  reviewTitle: 'Your password was reset: check your passkeys',
  /** {when} is the time of the reset. */
  reviewText: 'Your password was reset with a one-time code on {when}. A passkey signs in without the password, so remove any passkey below that you do not recognise or no longer have.',
  reviewDone: 'These passkeys are all mine',
};
