interface StepsProps {
  /** Index of the current step (0 passport, 1 identity, 2 enterprise type, 3 complete information). */
  current: number;
  labels: { label: string; passport: string; identity: string; enterprise: string; complete: string; done: string; current: string };
}

/** The onboarding steps as an ordered list; finished steps are ticked, the current one is marked. */
export function Steps({ current, labels }: StepsProps) {
  const names = [labels.passport, labels.identity, labels.enterprise, labels.complete];
  return (
    <nav aria-label={labels.label}>
      <ol className="steps">
        {names.map((name, index) => {
          const state = index < current ? 'done' : index === current ? 'current' : 'todo';
          return (
            <li key={name} className="step" data-state={state} aria-current={state === 'current' ? 'step' : undefined}>
              <span className="step-mark" aria-hidden="true">
                {state === 'done' ? '✓' : index + 1}
              </span>
              <span className="step-name">
                {name}
                {state === 'done' && <span className="visually-hidden"> ({labels.done})</span>}
                {state === 'current' && <span className="visually-hidden"> ({labels.current})</span>}
              </span>
            </li>
          );
        })}
      </ol>
      {/* Phones show the current step's name once, under the marks: four names do not fit four narrow columns. */}
      <p className="steps-caption" aria-hidden="true">
        {names[current]}
      </p>
    </nav>
  );
}
