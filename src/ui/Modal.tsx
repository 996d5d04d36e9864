import { useEffect, useId, useRef, type ReactNode } from 'react';

interface ModalProps {
  title: string;
  children: ReactNode;
  /** Escape and the close button call this; the dialog is modal, so focus stays inside. */
  onCancel: () => void;
  wide?: boolean;
  /** Focus starts on the heading (a dialog whose first control is a framed document: the agreement). */
  focusTitle?: boolean;
  /** Where focus goes on close when what opened the dialog no longer holds focus (a button disabled while busy). */
  returnFocusTo?: () => HTMLElement | null;
}

/**
 * A native modal <dialog>: focus trap, Escape and the backdrop come from the browser. When it closes, focus goes
 * back to what opened it (React removes the element before its cleanup runs, so the browser cannot).
 */
export function Modal({ title, children, onCancel, wide, focusTitle, returnFocusTo }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    const active = document.activeElement;
    const opened = active instanceof HTMLElement && active !== document.body ? active : null;
    if (dialog && !dialog.open) dialog.showModal();
    if (focusTitle) heading.current?.focus();
    return () => {
      dialog?.close();
      // Once the page has settled (a button busy behind the dialog is enabled again: up to half a second),
      // unless focus went elsewhere meanwhile.
      let frames = 0;
      const restore = () => {
        const lost = !document.activeElement || document.activeElement === document.body;
        const opener = opened?.isConnected ? opened : (returnFocusTo?.() ?? null);
        if (!lost || !opener) return;
        if ((opener as HTMLButtonElement).disabled && frames++ < 30) return void requestAnimationFrame(restore);
        opener.focus();
      };
      requestAnimationFrame(restore);
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={wide ? 'modal wide' : 'modal'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId} className="modal-title" ref={heading} tabIndex={focusTitle ? -1 : undefined}>
        {title}
      </h2>
      {children}
    </dialog>
  );
}
