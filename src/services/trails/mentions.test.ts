import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../limits/index.js';
import { findMentions, mentionLeads, type Mentionable } from './mentions.js';

const people: Mentionable[] = [
  { id: 'ann', name: 'Ann', email: 'ann@example.com' },
  { id: 'ann-lee', name: 'Ann Lee', email: null },
  { id: 'ann-lee-2', name: 'ann lee', email: 'ann.lee@example.org' },
  { id: 'bob', name: 'Bob Stone', email: 'bob@x.com' },
  { id: 'jose', name: 'José Núñez', email: null },
];

describe('mentions', () => {
  it('takes the longest name after each @, case-insensitively, and everyone of that name', () => {
    expect(findMentions('Thanks @ANN LEE, and @ann too.', people)).toEqual(['ann-lee', 'ann-lee-2', 'ann']);
    expect(findMentions('@Ann Leeway is not Ann Lee', people)).toEqual(['ann']);
  });

  it('ends a name where a word ends', () => {
    expect(findMentions('@Annabel, @Ann.', people)).toEqual(['ann']);
    expect(findMentions('@Bob', people)).toEqual([]);
    expect(findMentions('@josé núñez: done', people)).toEqual(['jose']);
  });

  it('takes an email after the @, but not an email written in prose, nor a longer address', () => {
    expect(findMentions('ask @bob@x.com.', people)).toEqual(['bob']);
    expect(findMentions('mail bob@x.com or ann@example.com', people)).toEqual([]);
    expect(findMentions('@bob@x.com.au', people)).toEqual([]);
    expect(findMentions('(@Ann.Lee@Example.org)', people)).toEqual(['ann-lee-2']);
  });

  it('looks up the letters after each @ and the emails, at most LIMITS.mentionsPerComment distinct words', () => {
    expect(mentionLeads('Hi @Ann Lee and @bob@x.com! a@b.c')).toEqual({ leads: ['ann', 'bob'], emails: ['bob@x.com'] });
    const many = Array.from({ length: LIMITS.mentionsPerComment + 5 }, (_, i) => `@p${i}`).join(' ');
    expect(mentionLeads(many).leads).toHaveLength(LIMITS.mentionsPerComment);
    expect(mentionLeads('@ @. @@')).toEqual({ leads: [], emails: [] });
  });
});
