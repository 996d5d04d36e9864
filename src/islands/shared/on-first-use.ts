import { lazy } from 'react';

/**
 * What the sign-in and password-reset forms need only once a person uses them: the dialogs load when first
 * opened, the area-code list (and with it the gateway client and zod) with the form's first focus or touch.
 * Their pages' first load stays inside its JavaScript budget (tests/e2e/budgets.spec.ts).
 */
export const AgreementModal = lazy(() => import('../../ui/AgreementModal').then((m) => ({ default: m.AgreementModal })));
export const InsecurePasswordModal = lazy(() => import('../../ui/InsecurePasswordModal').then((m) => ({ default: m.InsecurePasswordModal })));
export const SliderDialog = lazy(() => import('./SliderDialog').then((m) => ({ default: m.SliderDialog })));

/** A PhoneField's `loadAreaCodes`, stable, for a form that passes it once the form is first used. */
export const loadPhoneCodesLazily = () => import('../../api/dictionaries').then((d) => d.loadPhoneCodes());
