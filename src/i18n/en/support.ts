/** The support contact the Worker adds to a blocked account's refusal (SUPPORT_PHONE, SUPPORT_EMAIL, SUPPORT_HOURS). */
export const support = {
  lead: 'Customer support:',
  phone: 'phone {phone}',
  email: 'e-mail {email}',
  separator: ', ',
  end: '.',
};
