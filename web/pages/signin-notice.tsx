/** What a person sees without a session: how to get in (there are no passwords). */
export function SignInNotice() {
  return (
    <main id="main" class="signin">
      <h1>Sign in to Waymark</h1>
      <p>You are not signed in. Waymark has no passwords: ask the person who runs Waymark for a sign-in link.</p>
      <p>
        They create one with <code>waymark signin-link create --principal YOUR-ID</code>; opening the link signs you in. Each link works once and
        expires after a while.
      </p>
    </main>
  );
}
