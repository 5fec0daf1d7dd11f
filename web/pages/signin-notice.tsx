/** What a person sees without a session: how to get in (there are no passwords). */
export function SignInNotice() {
  return (
    <main id="main" class="signin">
      <h1>Sign in to Waymark</h1>
      <p>You are not signed in. Waymark has no passwords: ask your admin for a sign-in link.</p>
      <p>Opening the link signs you in. Each link works once and expires after a while, so ask for a new one if yours no longer works.</p>
    </main>
  );
}
