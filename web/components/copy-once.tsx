/**
 * A secret shown this once (a webhook's signing secret, an invitation's sign-in link): a read-only field that
 * selects itself, a Copy button, and what the copy did in words. Where the browser refuses the clipboard, the value
 * is left selected for the keyboard or the menu.
 */
import { useRef, useState } from 'preact/hooks';

export function CopyOnce(props: { id: string; label: string; value: string; what: string; describedBy: string }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const copy = () => {
    field.current?.select();
    navigator.clipboard.writeText(props.value).then(
      () => setCopied('Copied to the clipboard.'),
      () => setCopied(`The browser did not let the page copy it: the ${props.what} is selected, copy it with your keyboard or the menu.`),
    );
  };
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <div class="copy-row">
        <input
          id={props.id}
          ref={field}
          type="text"
          readOnly
          value={props.value}
          spellcheck={false}
          autoComplete="off"
          aria-describedby={props.describedBy}
          onFocus={(e) => (e.currentTarget as HTMLInputElement).select()}
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p aria-live="polite" class="muted copied">
        {copied}
      </p>
    </div>
  );
}
