import { RESEND_WAIT_MS } from '../lib/resend-wait';
import { map, type MapStore, type WritableAtom } from 'nanostores';
import type { ApiResult } from '../api/result';
import { keepOnSessionEnd, takeKeptForm } from '../lib/kept-forms';
import { problemOf, type MessageKey, type Problem } from '../i18n/problem';

export type Failure = Extract<ApiResult<unknown>, { ok: false }>;

export interface FormOptions<V, F extends string> {
  /**
   * Where a gateway failure goes, by code: the longest key the code starts with wins ('PH' is a family,
   * 'PH0001' one code); a function picks by the form's values. Anything else goes to 'form'.
   */
  codes?: Record<string, F | 'form' | ((values: V) => F | 'form')>;
  /** Where a failure with `data.path` (the gateway's zod issue) goes, by the path's first part. */
  paths?: Record<string, F>;
  /**
   * A failure shown at a field is said by the form-level alert too (heard by a person at the submit button):
   * the same words, or this problem in their place, so the page does not show one message twice.
   */
  alsoOnForm?: boolean | Problem;
  /** Which field's error an edit of a value clears (a value that is not itself a field, such as the area code). */
  fieldOfValue?: Partial<Record<keyof V, F>>;
  /** An edit also clears the form-level error. */
  editClearsForm?: boolean;
  /**
   * Values kept when the session ends while the form is open (src/lib/kept-forms.ts), under `name`; never a
   * password or a code. `when` says whether the form shows at all (an editor that is closed keeps nothing).
   */
  keep?: { name: string; values: (keyof V & string)[]; when?: (values: V) => boolean };
}

/**
 * One form's state: its values (with `busy`), its errors as problems the island puts into words, and the
 * failure handling every form shares. Flows are the only writers; islands read the stores and call them.
 */
export function createForm<V extends object, F extends string>(initial: V, options: FormOptions<V, F> = {}) {
  type State = V & { busy: boolean };
  type Errors = Partial<Record<F | 'form', Problem>>;
  const $values = map<State>({ ...initial, busy: false });
  const $errors = map<Errors>({});
  // The same stores, seen without the generic key types that nanostores' setKey cannot check inside a generic.
  const values = $values as unknown as MapStore<Record<string, unknown>>;
  const errors = $errors as unknown as MapStore<Record<string, Problem | undefined>>;
  let leaving = false;
  const keep = options.keep;
  if (keep) {
    keepOnSessionEnd(keep.name, () => {
      const now = $values.get();
      if (keep.when && !keep.when(now)) return null;
      return Object.fromEntries(keep.values.map((key) => [key, now[key]]));
    });
  }

  const fieldOfFailure = (failure: Failure): F | 'form' => {
    const data = failure.data as { path?: unknown } | { path?: unknown }[] | null | undefined;
    const path = Array.isArray(data) ? data[0]?.path : data?.path;
    const first = typeof path === 'string' ? path.split('.')[0]! : Array.isArray(path) ? String(path[0]) : '';
    const byPath = options.paths?.[first];
    if (byPath) return byPath;
    let best = '';
    for (const prefix in options.codes) if (failure.code.startsWith(prefix) && prefix.length > best.length) best = prefix;
    const entry = best ? options.codes![best]! : 'form';
    return typeof entry === 'function' ? entry($values.get()) : entry;
  };

  /**
   * Unmarks a field (its value was fixed some other way than `set`: a file uploaded, a rule that no longer
   * applies). "Please correct the marked fields" goes once no field is marked any more (issues 33, 47).
   */
  function clear(field: F) {
    if (errors.get()[field as string]) errors.setKey(field as string, undefined);
    const { form: summary, ...marked } = errors.get() as Record<string, unknown>;
    const isSummary = (summary as { key?: string } | undefined)?.key?.endsWith('errorSummary');
    if (isSummary && !Object.values(marked).some(Boolean)) errors.setKey('form', undefined);
  }

  return {
    $values,
    $errors,
    /** Sets a value and clears the error it caused. */
    set<K extends keyof V>(key: K, value: V[K]) {
      values.setKey(key as string, value);
      if (options.editClearsForm && errors.get().form) errors.setKey('form', undefined);
      clear((options.fieldOfValue?.[key] ?? key) as F);
    },
    clear,
    /** Back to the initial values (with `values` over them) and no errors. */
    reset(values: Partial<V> = {}) {
      $values.set({ ...initial, ...values, busy: false });
      $errors.set({});
    },
    /** Shows a problem at a field; false, so that a check can `return fail(...)`. */
    fail(field: F | 'form', problem: Problem): false {
      errors.setKey(field, problem);
      return false;
    },
    /** Replaces every error with these; true when there are none. */
    check(errors: Errors): boolean {
      $errors.set(errors);
      return Object.keys(errors).length === 0;
    },
    /** Shows a gateway failure at the field its code or path names (see the options). */
    failure(failure: Failure) {
      const field = fieldOfFailure(failure);
      const shown = problemOf(failure);
      errors.setKey(field, shown);
      if (options.alsoOnForm) errors.setKey('form', options.alsoOnForm === true || field === 'form' ? shown : options.alsoOnForm);
    },
    /**
     * Puts back what the form kept when the session ended on this page (once): the kept values of the
     * shapes the form starts with, or null when nothing was kept.
     */
    restoreKept(): Partial<V> | null {
      const kept = keep ? takeKeptForm(keep.name) : null;
      if (!kept || !keep) return null;
      const usable = Object.fromEntries(
        keep.values.filter((key) => key in kept && (typeof kept[key] === typeof initial[key] || initial[key] === null)).map((key) => [key, kept[key]]),
      ) as Partial<V>;
      $values.set({ ...$values.get(), ...usable });
      return usable;
    },
    /** The running flow ends by leaving the page: the form stays busy while the next page loads. */
    leaving() {
      leaving = true;
    },
    /** Runs one flow with `busy` set; a second call while one runs does nothing (a doubled click). */
    async run<T>(work: () => Promise<T>): Promise<T | undefined> {
      if ($values.get().busy) return undefined;
      values.setKey('busy', true);
      try {
        return await work();
      } finally {
        if (!leaving) values.setKey('busy', false);
        leaving = false;
      }
    },
  };
}

/** What a submit needs of its form (createForm's answer). */
interface SubmittedForm {
  $values: { get(): { busy: boolean } };
  fail(field: 'form', problem: Problem): false;
  run<T>(work: () => Promise<T>): Promise<T | undefined>;
}

/**
 * A form's submit: nothing while its flow runs; when `valid()` (which shows the field errors) is false, the
 * `summary` at the form; else `work` as the form's one flow. Apart from createForm, so pages that never submit
 * this way do not load it.
 */
export function submitChecked<T>(form: SubmittedForm, valid: () => boolean, summary: Problem, work: () => Promise<T>): Promise<T | undefined> {
  if (form.$values.get().busy) return Promise.resolve(undefined);
  if (!valid()) return Promise.resolve(void form.fail('form', summary));
  return form.run(work);
}

/** The server's wait between two codes to one address; a code button counts down the same. */
export { RESEND_WAIT_MS };

type CodeForm = {
  failure(failure: Failure): void;
  $values: { setKey(key: 'notice', value: MessageKey | ''): void };
  $errors: { set(errors: Record<string, never>): void };
  run<T>(work: () => Promise<T>): Promise<T | undefined>;
};

/**
 * A form's Get Code flow: busy while it runs, the last notice and errors cleared, then `send` (null when it
 * gave up: a field error shown, the slider closed). The button counts down the server's wait (the
 * `retryAfter` a refusal carries, or the full wait after a send) and the form says "code sent" or the failure.
 */
export function codeSendFlow(form: CodeForm, $cooldownUntil: WritableAtom<number>, send: () => Promise<ApiResult<unknown> | null>) {
  return () =>
    form.run(async () => {
      form.$values.setKey('notice', '');
      form.$errors.set({});
      const sent = await send();
      if (!sent) return;
      if (!sent.ok) {
        const retryAfter = (sent.data as { retryAfter?: number } | undefined)?.retryAfter;
        if (retryAfter) $cooldownUntil.set(Date.now() + retryAfter * 1000);
        return form.failure(sent);
      }
      $cooldownUntil.set(Date.now() + RESEND_WAIT_MS);
      form.$values.setKey('notice', 'signIn.codeSent');
    });
}
