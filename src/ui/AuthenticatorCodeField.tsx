import type { ComponentProps } from 'react';
import { TextField } from './TextField';

type AuthenticatorCodeFieldProps = Omit<ComponentProps<typeof TextField>, 'autoComplete' | 'inputMode' | 'maxLength' | 'required'>;

/** The six digits of an authenticator app: a numeric keyboard, and a one-time code to password managers. */
export function AuthenticatorCodeField(props: AuthenticatorCodeFieldProps) {
  return <TextField {...props} autoComplete="one-time-code" inputMode="numeric" maxLength={6} required />;
}
