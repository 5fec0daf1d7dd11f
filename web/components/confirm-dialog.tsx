/**
 * A question before a change (restore a revision): a modal <dialog>, so the browser keeps the focus inside it, Escape
 * cancels, and a screen reader announces it by its title. The focus starts on Cancel, the choice that changes
 * nothing, and goes back to the button that opened it when it closes.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function ConfirmDialog(props: { id: string; title: string; confirm: string; busy?: boolean; onConfirm(): void; onCancel(): void; children: ComponentChildren }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const d = dialog.current;
    d?.showModal();
    return () => {
      d?.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      class="confirm"
      aria-labelledby={`${props.id}-title`}
      aria-describedby={`${props.id}-text`}
      onCancel={(e) => {
        e.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      <div id={`${props.id}-text`}>{props.children}</div>
      <div class="actions">
        <button type="button" class="primary" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirm}
        </button>
        <button type="button" autoFocus onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
