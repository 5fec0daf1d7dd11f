/** The body syntax for describe_platform, with the configured anchor scheme (CONTRACT.md, "Brand"). */
import { nodeScheme } from '../../config.js';
import { CONNECTION_FLAGS } from '../slate.js';

export interface SyntaxEntry {
  construct: string;
  form: string;
  notes?: string;
}

export function describeBodySyntax(): SyntaxEntry[] {
  const a = `${nodeScheme}:`;
  return [
    { construct: 'element', form: `[<type>: <label>](${a}<key-or-id>)`, notes: `iframe, link-block, video-external: [<type>](${a}<key-or-id>); the label may be given in props.label instead; " (required)" after the line is printed for required elements and ignored on input` },
    { construct: 'link-inline element', form: `[<text>](<url> "${a}<key-or-id>")` },
    { construct: 'check-list item', form: `- [ ] [<text>](${a}<key-or-id>)`, notes: '`- [x]` = checked; " *(required)*" is printed for required items and ignored on input' },
    { construct: 'radio-button item', form: `- ( ) [<text>](${a}<key-or-id>)`, notes: '`- (x)` = the default choice' },
    { construct: 'dropdown item', form: `- [<name>](${a}<key-or-id>)` },
    { construct: 'link', form: `[<text>](<url> "${a}<id>[ <title>]")`, notes: 'a new link needs no anchor; http, https, mailto or relative urls only' },
    { construct: 'image', form: `![<alt>](<url> "${a}<id>[ <title>]")` },
    { construct: 'reference citation', form: '[[ref:<reference_id>|<label>]]' },
    { construct: 'credential declaration', form: '[credential: <handle>](credential:<handle> "<purpose>")' },
    {
      construct: 'outgoing connection',
      form: `[<label>](bit-connection:<target_bit_id>?node=<connection_id>&when=<element_id>:<option_id>[,<option_id>]&${CONNECTION_FLAGS.map((f) => `${f}=0`).join('&')})`,
      notes: 'its own line; label → = no label; without node= it adds a connection or claims the unclaimed stored one to that target; when=<check_list_item_id>:checked|unchecked',
    },
    { construct: 'prose', form: 'CommonMark with GFM tables, strikethrough and task lists; raw HTML stays literal text', notes: 'text imitating an element ([<type>: …] or a link whose text starts with "<type>:") is refused; escape the bracket as \\[' },
  ];
}
