/**
 * My settings (issue 27): which notifications also come by email, each kind in a person's words (the server's own
 * list, notifications/words.ts), and the address they go to, or that none is set (an Admin sets it).
 */
import { useEffect, useState } from 'preact/hooks';
import type { NotificationKind } from '../../src/store/enums.js';
import { notificationSettings, setNotificationSettings, type NotificationSettings } from '../notifications-api.js';

export function SettingsPage() {
  const [settings, setSettings] = useState<NotificationSettings | null>(null);
  const [chosen, setChosen] = useState<Set<NotificationKind>>(new Set());
  const [failed, setFailed] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  const [saving, setSaving] = useState(false);

  const show = (s: NotificationSettings) => {
    setSettings(s);
    setChosen(new Set(s.email_kinds));
  };
  useEffect(() => {
    notificationSettings().then(show, (e: Error) => setFailed(e.message));
  }, []);

  const toggle = (kind: NotificationKind, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(kind);
    else next.delete(kind);
    setChosen(next);
    setSaid('');
  };
  const save = async () => {
    if (!settings) return;
    setSaving(true);
    try {
      show(await setNotificationSettings(settings.kinds.map((k) => k.kind).filter((k) => chosen.has(k))));
      setSaid('Saved.');
    } catch (e) {
      setSaid(`Not saved: ${(e as Error).message}`);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <h1>Settings</h1>
      <h2>Notifications by email</h2>
      {failed && (
        <p role="alert" class="error-summary">
          {failed}
        </p>
      )}
      {!settings && !failed && <p class="loading">Loading…</p>}
      {settings && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          {settings.email ? (
            <p>
              Email goes to <strong>{settings.email}</strong>.
            </p>
          ) : (
            <p class="notice">No email address is set for you, so nothing is emailed yet: ask an Admin to set yours. Your choices below apply once it is set.</p>
          )}
          <p>Every notification also shows in the app, whatever you choose here.</p>
          <fieldset>
            <legend>Email me when</legend>
            {settings.kinds.map((k) => (
              <div class="option" key={k.kind}>
                <label>
                  <input type="checkbox" name="email_kinds" value={k.kind} checked={chosen.has(k.kind)} onChange={(e) => toggle(k.kind, (e.currentTarget as HTMLInputElement).checked)} /> {k.label}
                </label>
              </div>
            ))}
          </fieldset>
          <div class="actions">
            <button type="submit" disabled={saving}>
              Save
            </button>
            <p class="status" role="status">
              {said}
            </p>
          </div>
        </form>
      )}
    </>
  );
}
