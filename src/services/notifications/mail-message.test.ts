/** The mail of each kind of notification: exact subjects and texts, the link to the step, everything escaped in HTML. */
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS } from '../../store/enums.js';
import { composeMail, dueText, type MailFacts } from './mail-message.js';

const base = new URL('https://waymark.example.com/team');
const facts = (over: Partial<MailFacts>): MailFacts => ({
  kind: 'assigned',
  trailId: 'trl_1',
  stepId: 'stp_1',
  stepIsCurrent: true,
  recipientName: 'Ann Lee',
  actorName: 'Bob Stone',
  trailTitle: 'Onboarding Carla',
  flowTitle: 'Onboarding',
  stepTitle: 'Prepare the laptop',
  groupName: null,
  due: '2026-11-27T14:05:00.000Z',
  excerpt: null,
  ...over,
});
const FOOTER = 'Waymark tells you by email of steps for you, mentions and overdue work. Choose which of these mails you get in the app: https://waymark.example.com/team/app/';

describe('mail messages', () => {
  it('a step assigned to a person: subject, text with the due time and the step link', () => {
    const mail = composeMail(facts({}), base);
    expect(mail.subject).toBe('You have a step to do: Prepare the laptop in Onboarding Carla');
    expect(mail.text).toBe(
      [
        'Hello Ann Lee,',
        '',
        'Bob Stone gave you the step "Prepare the laptop" of the trail "Onboarding Carla" (flow "Onboarding").',
        '',
        'It is due 27 Nov 2026, 14:05 UTC.',
        '',
        'Open the step: https://waymark.example.com/team/app/#/trails/trl_1/step',
        '',
        '-- ',
        FOOTER,
        '',
      ].join('\n'),
    );
  });

  it('a step offered to a group, one without a due time or an actor', () => {
    const mail = composeMail(facts({ groupName: 'IT desk', due: null, actorName: null, trailTitle: null }), base);
    expect(mail.subject).toBe('Your group IT desk has a step to do: Prepare the laptop in Onboarding');
    expect(mail.text.split('\n').slice(2, 7)).toEqual([
      'The step "Prepare the laptop" of the trail "Onboarding" is for your group IT desk.',
      '',
      'Whoever of the group takes it first does it; the others see who has it.',
      '',
      'It has no due time.',
    ]);
  });

  it('a mention quotes the excerpt; one on an earlier step links to the trail', () => {
    const mail = composeMail(facts({ kind: 'mentioned', excerpt: 'Can you check\nthe serial number?', stepIsCurrent: false }), base);
    expect(mail.subject).toBe('Bob Stone mentioned you on Prepare the laptop in Onboarding Carla');
    expect(mail.text).toContain('Bob Stone mentioned you in a comment on the step "Prepare the laptop" of the trail "Onboarding Carla" (flow "Onboarding"):\n\n"Can you check the serial number?"\n');
    expect(mail.text).toContain('Open the trail: https://waymark.example.com/team/app/#/trails/trl_1\n');
  });

  it('overdue steps and trails', () => {
    const step = composeMail(facts({ kind: 'step_overdue', actorName: null }), base);
    expect(step.subject).toBe('Overdue: Prepare the laptop in Onboarding Carla');
    expect(step.text).toContain('The step "Prepare the laptop" of the trail "Onboarding Carla" (flow "Onboarding") was due 27 Nov 2026, 14:05 UTC and is not done yet.\n\nPlease do it, or ask an Admin to hand it to someone else.\n\nOpen the step: https://waymark.example.com/team/app/#/trails/trl_1/step');
    const trail = composeMail(facts({ kind: 'trail_overdue', actorName: null }), base);
    expect(trail.subject).toBe('Overdue: the trail Onboarding Carla');
    expect(trail.text).toContain('The trail "Onboarding Carla" (flow "Onboarding") was due 27 Nov 2026, 14:05 UTC and is not finished yet. It is at the step "Prepare the laptop".\n\nOpen the trail: https://waymark.example.com/team/app/#/trails/trl_1\n');
  });

  it('every kind escapes what people wrote in HTML and keeps subjects to one line', () => {
    const hostile = facts({ trailTitle: '<script>alert(1)</script>\r\nBcc: eve@example.com', stepTitle: '"><img src=x onerror=alert(1)>', actorName: "O'Brien & <b>co</b>", excerpt: '<iframe src="https://evil.example">', groupName: '<i>ops</i>' });
    for (const kind of NOTIFICATION_KINDS) {
      const mail = composeMail({ ...hostile, kind }, base);
      expect(mail.subject).not.toMatch(/[\r\n]/);
      expect(mail.html).not.toMatch(/<(script|img|iframe|b|i)[\s>]/i);
      expect(mail.html).not.toContain('"><');
      expect(mail.html).toContain('&lt;');
      // Only the one link and no other markup of ours carries an attribute.
      expect(mail.html.match(/href="/g)).toHaveLength(1);
    }
    expect(composeMail({ ...hostile, kind: 'assigned' }, base).html).toContain('<p>O&#39;Brien &amp; &lt;b&gt;co&lt;/b&gt; gave your group &lt;i&gt;ops&lt;/i&gt; the step &quot;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&quot;');
  });

  it('long titles are cut in the subject', () => {
    const mail = composeMail(facts({ stepTitle: 'x'.repeat(200) }), base);
    expect(mail.subject).toBe(`You have a step to do: ${'x'.repeat(79)}… in Onboarding Carla`);
  });

  it('due times in UTC', () => {
    expect(dueText('2026-01-05T09:03:59.000Z')).toBe('5 Jan 2026, 09:03 UTC');
  });
});
